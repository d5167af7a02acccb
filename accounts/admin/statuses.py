"""Statuses in the admin: posts read from Redis (no model mirrors them), newest first, paged by a ``max_id``
cursor, searched by id, ``@login`` or words, filtered by the author's state, each linking to its page on the
site, and the action **Remove post** with a required reason (``accounts.moderation.remove_post``: deleted as
its author's delete does, the author told why).

Any staff member with ``accounts.remove_post`` (the moderators) sees the list: it shows every post, those the
per-recipient policy hides from members included (``timelines.selectors.moderated_statuses``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse

from accounts import moderation
from accounts.admin.forms import ReasonForm, StatusSearchForm
from socialsite import redirects
from timelines.records import Status
from timelines.selectors import moderated_statuses

PERMISSION = "accounts.remove_post"
PAGE_SIZE = 50
STATES = (("", "All"), ("active", "Active"), ("limited", "Limited"), ("suspended", "Suspended"))


def register(site: Any) -> None:
    site.register_page(
        "moderation/statuses/",
        status_list,
        url_name="moderation_statuses",
        title="Statuses",
        allowed=lambda request: request.user.has_perm(PERMISSION),
    )
    site.register_page(
        "moderation/statuses/<int:status_id>/remove/", remove_status, url_name="moderation_remove_status"
    )
    site.register_page(
        "moderation/statuses/<int:status_id>/images/<int:media_id>/remove/",
        remove_image,
        url_name="moderation_remove_image",
    )


def _row(status: Status, state: str, back: str) -> dict[str, Any]:
    remove = reverse("admin:moderation_remove_status", kwargs={"status_id": status.id})
    return {
        "id": status.id,
        "login": status.login,
        "name": status.name,
        "message": status.message,
        "media": [
            {
                "id": item.id,
                "url": item.url,
                "preview_url": item.preview_url,
                "description": item.description,
                "remove_url": reverse(
                    "admin:moderation_remove_image", kwargs={"status_id": status.id, "media_id": item.id}
                )
                + f"?{urlencode({'next': back})}",
            }
            for item in status.media
        ],
        "posted": datetime.fromtimestamp(status.posted, tz=UTC),
        "replies": status.reply_count,
        "reposts": status.repost_count,
        "likes": status.like_count,
        "state": state,
        "url": reverse("timelines:status", kwargs={"login": status.login, "status_id": status.id}),
        "remove_url": f"{remove}?{urlencode({'next': back})}",
    }


def _link(**params: str | int) -> str:
    """A link to the list with ``params``, empty ones left out."""
    return "?" + urlencode({name: value for name, value in params.items() if value})


def status_list(request: HttpRequest) -> HttpResponse:
    """The list; a malformed query string (a cursor that is no id, an unknown state, an overlong search) shows
    the newest posts with what was wrong, answered 400."""
    if not request.user.has_perm(PERMISSION):
        raise PermissionDenied
    form = StatusSearchForm(request.GET)
    query, state, max_id = "", "", 0
    if form.is_valid():
        query, state, max_id = form.cleaned_data["q"], form.cleaned_data["state"], form.cleaned_data["max_id"] or 0
    page = moderated_statuses.get_status_list(query=query, author_state=state, max_id=max_id, count=PAGE_SIZE)
    back = request.get_full_path()
    context = {
        **admin.site.each_context(request),
        "title": "Statuses",
        "subtitle": None,
        "errors": [f"{name}: {' '.join(messages)}" for name, messages in form.errors.items()],
        "query": query,
        "state": state,
        "rows": [_row(item.status, item.author_state, back) for item in page.statuses],
        "filters": [(label, _link(q=query, state=value), value == state) for value, label in STATES],
        "next_url": _link(q=query, state=state, max_id=page.next_max_id or 0) if page.next_max_id else "",
        "first_url": _link(q=query, state=state) if max_id else "",
        "can_remove": request.user.has_perm(PERMISSION),
        "cl": {"has_filters": True},  # the changelist template's layout, with the filters beside the list
    }
    status = 400 if form.errors else 200
    return TemplateResponse(request, "admin/moderation/statuses.html", context, status=status)


def remove_status(request: HttpRequest, status_id: int) -> HttpResponse:
    """The Remove post form: the post, a required reason, and Remove; then back to the list it came from."""
    if not request.user.has_perm(PERMISSION):
        raise PermissionDenied
    status = moderated_statuses.get_statuses_by_id(status_ids=[status_id]).get(status_id)
    if status is None:
        raise Http404("No such post.")
    back = redirects.next_url(request, reverse("admin:moderation_statuses"))
    form = ReasonForm(
        request.POST if request.method == "POST" else None,
        help_text="Required. The author is told: “Your post was removed by the moderators: <reason>”.",
    )
    if form.is_valid():
        try:
            moderation.remove_post(moderator=request.user, status_id=status_id, reason=form.cleaned_data["reason"])
        except moderation.ModerationError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, f"Removed post #{status_id} by @{status.login}.")
            return HttpResponseRedirect(back)
    context = {
        **admin.site.each_context(request),
        "title": f"Remove post #{status_id}",
        "row": _row(status, "", back),
        "form": form,
        "next": back,
    }
    return TemplateResponse(request, "admin/moderation/remove_status.html", context, status=400 if form.errors else 200)


def remove_image(request: HttpRequest, status_id: int, media_id: int) -> HttpResponse:
    """The Remove image form: the post, the image, a required reason, and Remove image; the post stays."""
    if not request.user.has_perm(PERMISSION):
        raise PermissionDenied
    status = moderated_statuses.get_statuses_by_id(status_ids=[status_id]).get(status_id)
    if status is None or media_id not in {item.id for item in status.media}:
        raise Http404("No such image.")
    back = redirects.next_url(request, reverse("admin:moderation_statuses"))
    form = ReasonForm(
        request.POST if request.method == "POST" else None,
        help_text="Required. Kept in the moderation log with the author's account.",
    )
    if form.is_valid():
        try:
            moderation.remove_image(
                moderator=request.user, status_id=status_id, media_id=media_id, reason=form.cleaned_data["reason"]
            )
        except moderation.ModerationError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, f"Removed an image of post #{status_id} by @{status.login}.")
            return HttpResponseRedirect(back)
    row = _row(status, "", back)
    context = {
        **admin.site.each_context(request),
        "title": f"Remove an image of post #{status_id}",
        "row": {**row, "media": [item for item in row["media"] if item["id"] == media_id]},
        "form": form,
        "next": back,
        "explanation": "Only this image is removed: the post stays. The image is gone from the post, its edit "
        "history, live pages and the streams, and its file stops loading at once.",
        "action_label": "Remove image",
    }
    return TemplateResponse(request, "admin/moderation/remove_status.html", context, status=400 if form.errors else 200)

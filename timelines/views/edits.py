"""Editing a post (issue 19): ``/@login/<id>/edit`` (the form in place with htmx, a page without JavaScript, then
Save; with its images, issue 21: each kept one's "Describe this image" and Remove, and "Add images") and
``/@login/<id>/history`` (every version, newest first, with its images, for whoever may see the post)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_safe
from django_htmx.http import reswap, retarget

from media import services as media_services
from media.processing import InvalidImage
from socialsite import ratelimits
from socialsite.redirects import next_url, redirect_next
from timelines import exceptions, limits, selectors, services
from timelines.forms import EditForm
from timelines.records import Status
from timelines.templatetags.timeline_format import status_url
from timelines.views.params import announce, viewer_uid, wants_fragment
from timelines.views.post_box import images_of

# The edit form's marker that it lists the post's images (a form without it leaves them as they are).
_WITH_IMAGES = "with-images"


def _post_of(login: str, status_id: int | str, viewer: int | None) -> Status:
    """The post ``status_id`` of ``login`` as ``viewer`` may see it; a repost, someone else's login, a post the
    policy hides from the viewer or a missing one is 404 alike."""
    try:
        status = selectors.get_status(status_id=int(status_id), viewer_uid=viewer)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    if status.login.lower() != login.lower() or status.repost_of is not None:
        raise Http404(exceptions.STATUS_NOT_FOUND)
    return status


def _images(status: Status, request: HttpRequest | None = None) -> list[dict[str, object]]:
    """The post's images as the edit form lists them: each with its alt text and whether Remove is ticked (as
    typed, when the form comes back with an error)."""
    posted = request is not None and request.method == "POST" and _WITH_IMAGES in request.POST
    removed = set(request.POST.getlist("remove")) if posted and request else set()
    return [
        {
            "item": item,
            "description": request.POST.get(f"alt-{item.id}", item.description)
            if posted and request
            else item.description,
            "removed": str(item.id) in removed,
        }
        for item in status.media
    ]


def _context(
    status: Status, form: EditForm, next_path: str, *, inline: bool = False, request: HttpRequest | None = None
) -> dict[str, object]:
    """The edit box's context: ``inline`` in place of the post's text (htmx), else on the edit page, where it is a
    plain form (the post it would swap back into is not on that page)."""
    return {
        "status": status,
        "images": _images(status, request),
        "form": form,
        "next": next_path,
        "inline": inline,
        "autofocus": True,
        "max_message_length": limits.MAX_MESSAGE_LENGTH,
    }


def _the_post(request: HttpRequest, status_id: int, next_path: str) -> HttpResponse:
    """The post as its author sees it now, to swap in for the form (htmx)."""
    try:
        entry = selectors.get_entry(status_id=status_id, viewer_uid=request.user.uid)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    context = {"entry": entry, "viewer_uid": request.user.uid, "current_path": next_path}
    response = render(request, "timelines/_status_swap.html", context)
    return reswap(retarget(response, f"#status-{entry.entry_id}"), "outerHTML")


def _refused_page(request: HttpRequest, message: str, login: str, status_id: int) -> HttpResponse:
    """The posts rate limit's answer without JavaScript: the edit page keeping what was typed, and why."""
    status = _post_of(login, status_id, request.user.uid)
    form = EditForm(request.POST)
    form.is_valid()
    form.add_error("message", message)
    fallback = status_url(status.login, status.id)
    context = _context(status, form, next_url(request, fallback), request=request)
    return render(request, "timelines/edit_status.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit("posts", page=_refused_page)
def edit(request: HttpRequest, login: str, status_id: str) -> HttpResponse:
    """GET: the edit form (in place of the post's text with htmx, else a page); ``?cancel=1`` gives the post
    back. POST: Save."""
    uid = request.user.uid
    status = _post_of(login, status_id, uid)
    if status.uid != uid:
        return render(request, "error.html", {"message": exceptions.NOT_EDIT_OWNER}, status=403)
    fallback = status_url(status.login, status.id)
    target = next_url(request, fallback)
    if request.method != "POST":
        if wants_fragment(request) and "cancel" in request.GET:
            return _the_post(request, status.id, target)
        form = EditForm(initial={"message": status.message})
        if wants_fragment(request):
            return render(request, "timelines/_edit_form.html", _context(status, form, target, inline=True))
        return render(request, "timelines/edit_status.html", _context(status, form, target))
    form = EditForm(request.POST)
    if form.is_valid() and _save(request, form, status):
        if wants_fragment(request):
            return announce(_the_post(request, status.id, target), "Post edited.")
        messages.success(request, "Post edited.")
        return redirect_next(request, fallback)
    context = _context(status, form, target, inline=wants_fragment(request), request=request)
    if wants_fragment(request):
        return render(request, "timelines/_edit_form.html", context, status=400)
    return render(request, "timelines/edit_status.html", context, status=400)


def _save(request: HttpRequest, form: EditForm, status: Status) -> bool:
    """Edit the post with the form's text and images (the ones kept, their alt texts, the files added, stored
    first and deleted again when the edit is refused); False with the form's errors set when refused."""
    uid = request.user.uid
    media_ids: list[int] | None = None
    descriptions: dict[object, str] = {}
    added: list[int] = []
    if _WITH_IMAGES in request.POST:
        removed = set(request.POST.getlist("remove"))
        kept = [item for item in status.media if str(item.id) not in removed]
        for item in kept:
            text = request.POST.get(f"alt-{item.id}", item.description)
            if text.strip() != item.description:
                descriptions[item.id] = text
        try:
            added = [picture.pk for picture in media_services.upload_many(owner=uid, items=images_of(request))]
        except (InvalidImage, media_services.InvalidMedia) as error:
            form.add_error(None, error.message)
            return False
        if added or len(kept) != len(status.media):
            media_ids = [item.id for item in kept] + added
    try:
        services.edit_status(
            uid=uid,
            status_id=status.id,
            message=form.cleaned_data["message"],
            media_ids=media_ids,
            descriptions=descriptions or None,
        )
        return True
    except exceptions.InvalidMedia as error:
        form.add_error(None, error.message)
    except (exceptions.InvalidMessage, exceptions.TooManyVersions) as error:
        form.add_error("message", error.message)
    except exceptions.NotOwner:
        form.add_error("message", exceptions.NOT_EDIT_OWNER)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    finally:
        # Files added but not posted are not kept (those the edit claimed are the post's now).
        if added:
            media_services.discard(owner=uid, media_ids=added)
    return False


@require_safe
def history(request: HttpRequest, login: str, status_id: str) -> HttpResponse:
    """Every version of a post, newest first; 404 for a post the viewer may not see, as its page."""
    status = _post_of(login, status_id, viewer_uid(request))
    try:
        versions = selectors.get_status_history(status_id=status.id, viewer_uid=viewer_uid(request))
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    return render(request, "timelines/status_history.html", {"status": status, "versions": versions})

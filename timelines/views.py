"""Server-rendered pages: home timeline, profiles, follow lists, posting, deleting, following.

Views check input, call services and selectors, map domain errors to a message and a 4xx, and render plain
data. Every page works without JavaScript: each change is a POST with a CSRF token, answered with a redirect.
When htmx sends the request (``request.htmx``), the same view answers with just the fragment that changed
(a follow button and the counts, the next page of a timeline, the compose box and the new post, an inline
delete confirmation), so the page updates in place.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from accounts.services import ensure_profile
from timelines import exceptions, keys, routing, selectors, services
from timelines.forms import PostForm
from timelines.records import User

PAGE_SIZE = keys.DEFAULT_PAGE_SIZE
FOLLOW_LIST_PAGE_SIZE = 50
SUGGESTIONS = 5
MAX_QUERY_INT = 2**53


def _query_int(request: HttpRequest, name: str, *, default: int | None = None) -> int | None:
    """A positive integer query parameter, or ``default`` when absent; anything else is a 400."""
    raw = request.GET.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or not 0 < int(raw) < MAX_QUERY_INT:
        raise BadRequest(f"{name} must be a positive whole number.")
    return int(raw)


def _next_url(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False):
        return target
    return fallback


def _profile_or_404(login: str) -> User:
    try:
        return selectors.get_user_by_login(login=login)
    except exceptions.UnknownUser:
        raise Http404(exceptions.UNKNOWN_USER) from None


def _wants_fragment(request: HttpRequest) -> bool:
    """An htmx request for part of a page (not a boosted navigation, which wants the whole page)."""
    return bool(request.htmx) and not request.htmx.boosted


def _announce(response: HttpResponse, message: str) -> HttpResponse:
    """Ask site.js to read ``message`` out in the page's polite live region (screen readers)."""
    return trigger_client_event(response, "announce", {"message": message})


def _timeline_context(statuses: list[dict[str, object]]) -> dict[str, object]:
    return {"statuses": statuses, "next_max_id": statuses[-1]["id"] if len(statuses) >= PAGE_SIZE else None}


def _timeline_response(request: HttpRequest, template: str, context: dict[str, object]) -> HttpResponse:
    """The whole page, or for htmx's "Load more" only the next statuses and the next pager."""
    if _wants_fragment(request) and request.GET.get("max_id"):
        response = render(request, "timelines/_timeline_page.html", context)
    else:
        response = render(request, template, context)
    # The same URL answers with a fragment or a page: caches must keep them apart.
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "timelines/landing.html")
    return _render_home(request, PostForm())


def _render_home(request: HttpRequest, form: PostForm, status: int = 200) -> HttpResponse:
    uid = ensure_profile(request.user)
    max_id = _query_int(request, "max_id")
    statuses = selectors.get_status_messages(uid=uid, timeline="home", max_id=max_id, count=PAGE_SIZE)
    if _wants_fragment(request) and max_id:
        return _timeline_response(request, "timelines/home.html", _timeline_context(statuses))
    me = selectors.get_user(uid=uid)
    first_page = max_id is None
    context = {
        "me": me,
        "form": form,
        "max_message_length": keys.MAX_MESSAGE_LENGTH,
        # Only the newest page follows the stream; older pages stay as they were when read.
        "live_url": f"/{routing.LIVE_HOME_PATH}?since_id={statuses[0]['id'] if statuses else 0}" if first_page else "",
        "suggestions": (
            selectors.get_suggested_users(uid=uid, count=SUGGESTIONS)
            if first_page and (me.following == 0 or not statuses)
            else []
        ),
        **_timeline_context(statuses),
    }
    response = _timeline_response(request, "timelines/home.html", context)
    response.status_code = status
    return response


def _compose_fragment(request: HttpRequest, form: PostForm, *, status: int = 200, **extra: object) -> HttpResponse:
    context = {"form": form, "max_message_length": keys.MAX_MESSAGE_LENGTH, **extra}
    return render(request, "timelines/_compose_result.html", context, status=status)


@login_required
@require_POST
def compose(request: HttpRequest) -> HttpResponse:
    form = PostForm(request.POST)
    if form.is_valid():
        uid = ensure_profile(request.user)
        try:
            status_id = services.post_status(uid=uid, message=form.cleaned_data["message"])
        except (exceptions.InvalidMessage, exceptions.InvalidStatusData) as error:
            form.add_error("message", error.message)
        else:
            if _wants_fragment(request):
                response = _compose_fragment(
                    request, PostForm(), posted=selectors.get_status(status_id=status_id), focus=True
                )
                return _announce(response, "Posted.")
            messages.success(request, "Posted.")
            return redirect("timelines:home")
    if _wants_fragment(request):
        return _compose_fragment(request, form, status=400)
    return _render_home(request, form, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def delete(request: HttpRequest, status_id: int) -> HttpResponse:
    uid = ensure_profile(request.user)
    try:
        status = selectors.get_status(status_id=status_id)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    if status["uid"] != uid:
        return render(request, "error.html", {"message": exceptions.NOT_OWNER}, status=403)
    fallback = reverse("timelines:profile", args=[request.user.username])
    if request.method == "GET":
        next_url = _next_url(request, fallback)
        if _wants_fragment(request):
            template = "timelines/_delete_button.html" if "cancel" in request.GET else "timelines/_delete_inline.html"
            return render(request, template, {"status": status, "next": next_url, "autofocus": True})
        return render(request, "timelines/delete_confirm.html", {"status": status, "next": next_url})
    try:
        services.delete_status(uid=uid, status_id=status_id)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    except exceptions.NotOwner:
        return render(request, "error.html", {"message": exceptions.NOT_OWNER}, status=403)
    if _wants_fragment(request):
        # The confirmation form swaps its whole post out of the page ("delete"); nothing to send back.
        return _announce(HttpResponse(""), "Post deleted.")
    messages.success(request, "Post deleted.")
    return redirect(_next_url(request, fallback))


@require_GET
def profile(request: HttpRequest, login: str) -> HttpResponse:
    user = _profile_or_404(login)
    max_id = _query_int(request, "max_id")
    statuses = selectors.get_status_messages(uid=user.id, timeline="profile", max_id=max_id, count=PAGE_SIZE)
    viewer_uid = ensure_profile(request.user) if request.user.is_authenticated else None
    context = {
        "profile": user,
        "is_me": viewer_uid == user.id,
        "is_following": viewer_uid is not None
        and viewer_uid != user.id
        and selectors.is_following(uid=viewer_uid, other_uid=user.id),
        "list_choices": selectors.get_list_choices(uid=viewer_uid, member_uid=user.id) if viewer_uid else [],
        **_timeline_context(statuses),
    }
    return _timeline_response(request, "timelines/profile.html", context)


def _follow_list(request: HttpRequest, login: str, which: str) -> HttpResponse:
    user = _profile_or_404(login)
    page = _query_int(request, "page", default=1) or 1
    reader = selectors.get_followers if which == "followers" else selectors.get_following
    people = reader(uid=user.id, page=page, count=FOLLOW_LIST_PAGE_SIZE)
    viewer_uid = ensure_profile(request.user) if request.user.is_authenticated else None
    flags = (
        selectors.get_following_flags(uid=viewer_uid, other_uids=[person.id for person in people])
        if viewer_uid is not None
        else {}
    )
    rows = [
        {"user": person, "is_following": flags.get(person.id, False), "is_me": person.id == viewer_uid}
        for person in people
    ]
    context = {
        "profile": user,
        "which": which,
        "rows": rows,
        "page": page,
        "next_page": page + 1 if len(people) >= FOLLOW_LIST_PAGE_SIZE else None,
        "previous_page": page - 1 if page > 1 else None,
    }
    return render(request, "timelines/follow_list.html", context)


@require_GET
def followers(request: HttpRequest, login: str) -> HttpResponse:
    return _follow_list(request, login, "followers")


@require_GET
def following(request: HttpRequest, login: str) -> HttpResponse:
    return _follow_list(request, login, "following")


def _change_follow(request: HttpRequest, login: str, *, follow: bool) -> HttpResponse:
    other = _profile_or_404(login)
    uid = ensure_profile(request.user)
    try:
        if follow:
            changed = services.follow_user(uid=uid, other_uid=other.id)
        else:
            changed = services.unfollow_user(uid=uid, other_uid=other.id)
    except exceptions.CannotFollowSelf as error:
        if _wants_fragment(request):
            context = {"target": other, "following": False, "error": error.message}
            return render(request, "timelines/_follow_result.html", context, status=400)
        return render(request, "error.html", {"message": error.message}, status=400)
    except exceptions.UnknownUser:
        raise Http404(exceptions.UNKNOWN_USER) from None
    verb = "now follow" if follow else "no longer follow"
    if _wants_fragment(request):
        context = {
            # Fresh counts: the follower count on the page changes with this click.
            "target": selectors.get_user(uid=other.id),
            "following": follow,
            "with_counts": bool(request.POST.get("counts")),
        }
        return _announce(render(request, "timelines/_follow_result.html", context), f"You {verb} @{other.login}.")
    if changed:
        messages.success(request, f"You {verb} @{other.login}.")
    return redirect(_next_url(request, reverse("timelines:profile", args=[other.login])))


@login_required
@require_POST
def follow(request: HttpRequest, login: str) -> HttpResponse:
    return _change_follow(request, login, follow=True)


@login_required
@require_POST
def unfollow(request: HttpRequest, login: str) -> HttpResponse:
    return _change_follow(request, login, follow=False)

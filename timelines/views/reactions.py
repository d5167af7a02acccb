"""Like, Unlike, Repost, Undo repost, Bookmark and Remove bookmark: a form post answered with a redirect, or with
htmx the post's buttons with fresh counts."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from socialsite.redirects import redirect_next
from timelines import exceptions, selectors, services
from timelines.records import TimelineEntry
from timelines.templatetags.timeline_format import status_url
from timelines.views.params import announce, parse_int, wants_fragment

_ACTIONS: dict[str, tuple[Callable[..., bool], str]] = {
    "like": (services.like_status, "Liked."),
    "unlike": (services.unlike_status, "Like removed."),
    "repost": (services.repost_status, "Reposted."),
    "unrepost": (services.undo_repost, "Repost undone."),
    "bookmark": (services.bookmark_status, "Bookmarked."),
    "unbookmark": (services.unbookmark_status, "Bookmark removed."),
}


def _act(request: HttpRequest, status_id: int, action: str) -> HttpResponse:
    uid = request.user.uid
    service, done = _ACTIONS[action]
    try:
        service(uid=uid, status_id=status_id)
    except exceptions.StatusNotFound:
        raise Http404(exceptions.STATUS_NOT_FOUND) from None
    except (exceptions.CannotRepost, exceptions.TooManyBookmarks) as error:
        if wants_fragment(request):
            return HttpResponse(error.message, status=403, content_type="text/plain; charset=utf-8")
        return render(request, "error.html", {"message": error.message}, status=403)
    if wants_fragment(request):
        try:
            entry = selectors.get_entry(status_id=status_id, viewer_uid=uid)
        except exceptions.StatusNotFound:
            raise Http404(exceptions.STATUS_NOT_FOUND) from None
        entry_id = parse_int(request.POST.get("entry"), "entry") or entry.entry_id
        shown = TimelineEntry(entry.status, None, entry_id, entry.liked, entry.reposted, bookmarked=entry.bookmarked)
        return announce(render(request, "timelines/_status_buttons.html", {"status": shown}), done)
    messages.success(request, done)
    try:
        fallback = status_url(selectors.get_status(status_id=status_id, viewer_uid=uid).login, status_id)
    except exceptions.StatusNotFound:
        fallback = "/"
    return redirect_next(request, fallback)


@login_required
@require_POST
def like(request: HttpRequest, status_id: int) -> HttpResponse:
    return _act(request, status_id, "like")


@login_required
@require_POST
def unlike(request: HttpRequest, status_id: int) -> HttpResponse:
    return _act(request, status_id, "unlike")


@login_required
@require_POST
def repost(request: HttpRequest, status_id: int) -> HttpResponse:
    return _act(request, status_id, "repost")


@login_required
@require_POST
def unrepost(request: HttpRequest, status_id: int) -> HttpResponse:
    return _act(request, status_id, "unrepost")


@login_required
@require_POST
def bookmark(request: HttpRequest, status_id: int) -> HttpResponse:
    return _act(request, status_id, "bookmark")


@login_required
@require_POST
def unbookmark(request: HttpRequest, status_id: int) -> HttpResponse:
    return _act(request, status_id, "unbookmark")

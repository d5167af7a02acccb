"""``/@login/likes``: the posts someone liked, most recent like first, paged by like time."""

from __future__ import annotations

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from timelines import policy, selectors
from timelines.views.params import user_or_404, viewer_uid
from timelines.views.timeline_pages import PAGE_SIZE


def _before(request: HttpRequest) -> float | None:
    raw = request.GET.get("before")
    if raw is None or raw == "":
        return None
    try:
        value = float(raw)
    except ValueError:
        raise BadRequest("before must be a time.") from None
    if len(raw) > 32 or not 0 < value < 1e11:
        raise BadRequest("before must be a time.")
    return value


@require_safe
def likes(request: HttpRequest, login: str) -> HttpResponse:
    person = user_or_404(login)
    viewer = viewer_uid(request)
    before = _before(request)
    # What a private account likes is its own activity: approved followers only, like its posts (and a block
    # hides it both ways).
    if not policy.may_see_profile(viewer=viewer, author=person.id):
        return render(request, "timelines/likes.html", {"profile": person, "shown": False, "statuses": []})
    page = selectors.get_liked_statuses(uid=person.id, count=PAGE_SIZE, before=before, viewer_uid=viewer)
    context = {"profile": person, "shown": True, "statuses": page.entries, "next_before": page.next_before}
    return render(request, "timelines/likes.html", context)

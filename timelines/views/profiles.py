"""Profiles (``/@login``) with their timeline, and their followers and following lists."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from timelines import policy, selectors, uris
from timelines.views.params import query_int, user_or_404, viewer_uid
from timelines.views.timeline_pages import PAGE_SIZE, timeline_context, timeline_response

FOLLOW_LIST_PAGE_SIZE = 50


@require_safe
def profile(request: HttpRequest, login: str) -> HttpResponse:
    user = user_or_404(login)
    max_id = query_int(request, "max_id")
    viewer = viewer_uid(request)
    relationship = selectors.get_relationship(viewer=viewer, other=user.id)
    # A private account shows its posts to approved followers only; a block hides them both ways.
    shown = policy.may_see_profile(viewer=viewer, author=user.id)
    statuses = (
        selectors.get_status_messages(
            uid=user.id, timeline="profile", max_id=max_id, count=PAGE_SIZE, viewer_uid=viewer
        )
        if shown
        else []
    )
    context = {
        "profile": user,
        "canonical_url": uris.account_uri(user.login),
        "is_me": viewer == user.id,
        "is_following": relationship.following,
        "relationship": relationship,
        "shown": shown,
        "list_choices": selectors.get_list_choices(uid=viewer, member_uid=user.id) if viewer else [],
        **timeline_context(statuses),
    }
    return timeline_response(request, "timelines/profile.html", context)


def _follow_list(request: HttpRequest, login: str, which: str) -> HttpResponse:
    user = user_or_404(login)
    page = query_int(request, "page", default=1) or 1
    viewer = viewer_uid(request)
    # Whom a private account follows and who follows it show to its approved followers only (as on Twitter).
    if not policy.may_see_profile(viewer=viewer, author=user.id):
        context = {"profile": user, "which": which, "rows": [], "shown": False, "page": page}
        return render(request, "timelines/follow_list.html", context)
    reader = selectors.get_followers if which == "followers" else selectors.get_following
    people = reader(uid=user.id, page=page, count=FOLLOW_LIST_PAGE_SIZE)
    flags = (
        selectors.get_following_flags(uid=viewer, other_uids=[person.id for person in people])
        if viewer is not None
        else {}
    )
    rows = [
        {"user": person, "is_following": flags.get(person.id, False), "is_me": person.id == viewer} for person in people
    ]
    context = {
        "profile": user,
        "which": which,
        "rows": rows,
        "shown": True,
        "page": page,
        "next_page": page + 1 if len(people) >= FOLLOW_LIST_PAGE_SIZE else None,
        "previous_page": page - 1 if page > 1 else None,
    }
    return render(request, "timelines/follow_list.html", context)


@require_safe
def followers(request: HttpRequest, login: str) -> HttpResponse:
    return _follow_list(request, login, "followers")


@require_safe
def following(request: HttpRequest, login: str) -> HttpResponse:
    return _follow_list(request, login, "following")

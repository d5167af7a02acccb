"""Discovery pages: a tag's public timeline (``/tags/<tag>``) and search (``/search?q=``), both open to
anonymous visitors. The home page's Trending box is rendered by ``home`` from ``selectors.get_trending_tags``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from django.http import HttpRequest, HttpResponse
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from socialsite import ratelimits
from timelines import exceptions, hooks, selectors, text
from timelines.forms import SearchForm
from timelines.records import User
from timelines.selectors import followed_tags
from timelines.views.params import query_int, viewer_uid
from timelines.views.timeline_pages import PAGE_SIZE, timeline_context, timeline_response

SEARCH_PAGE_SIZE = 20
# ``@login@domain`` or a profile's address: another server's account, which search looks up there (issue 22).
REMOTE_ACCT = re.compile(r"@?[A-Za-z0-9_]{1,30}@[A-Za-z0-9.-]{1,253}(?::[0-9]{1,5})?|https?://\S{1,500}")


@require_safe
def tag(request: HttpRequest, tag: str) -> HttpResponse:
    name = text.normalize_tag(tag)
    max_id = query_int(request, "max_id")
    viewer = viewer_uid(request)
    statuses = selectors.get_tag_timeline(tag=name, max_id=max_id, count=PAGE_SIZE, viewer_uid=viewer)
    # The Follow button's state (issue 20): whether the viewer's home gets this tag's public posts.
    following = bool(text.is_tag(name) and followed_tags.follows_tags(uid=viewer, tags=[name])[0])
    context = {"tag": name, "tag_following": following, "can_follow": text.is_tag(name), **timeline_context(statuses)}
    return timeline_response(request, "timelines/tag.html", context)


def _search_refused(request: HttpRequest, message: str) -> HttpResponse:
    form = SearchForm(request.GET)
    form.is_valid()
    form.add_error("q", message)
    return timeline_response(request, "timelines/search.html", {"form": form, "results": None})


def _bad_query(request: HttpRequest, context: dict[str, object]) -> HttpResponse:
    """The form with its error, as a 400."""
    response = timeline_response(request, "timelines/search.html", context)
    response.status_code = 400
    return response


def _remote_account(request: HttpRequest, query: str) -> User | None:
    """Another server's account named by ``query`` (``@login@domain``, or the address of its profile), looked up
    there when it is not known yet (``hooks.resolve_account``: federation); for people logged in only, so no
    stranger makes the site fetch."""
    if not request.user.is_authenticated or not REMOTE_ACCT.fullmatch(query.strip()):
        return None
    uid = hooks.resolve_account(query.strip().removeprefix("@"))
    if uid is None:
        return None
    try:
        return selectors.get_user(uid=uid)
    except exceptions.UnknownUser:
        return None


@require_safe
@ratelimits.limit("search", methods=("GET", "HEAD"), page=_search_refused)
def search(request: HttpRequest) -> HttpResponse:
    """Results of ``q``; no query (or a blank one) shows the form with a hint, a bad one is a 400 with the form
    and the reason, never a 500."""
    if "q" not in request.GET:
        return timeline_response(request, "timelines/search.html", {"form": SearchForm(), "results": None})
    form = SearchForm(request.GET)
    context: dict[str, object] = {"form": form, "results": None}
    if not form.is_valid():
        # Only what CharField itself refuses (a null character): the query's own rules are the selector's.
        return _bad_query(request, context)
    max_id = query_int(request, "max_id")
    remote = _remote_account(request, form.cleaned_data["q"]) if not max_id else None
    try:
        results = selectors.search(
            query=form.cleaned_data["q"], viewer_uid=viewer_uid(request), count=SEARCH_PAGE_SIZE, max_id=max_id
        )
    except exceptions.EmptyQuery:
        return timeline_response(request, "timelines/search.html", context)
    except exceptions.InvalidQuery as error:
        form.add_error("q", error.message)
        return _bad_query(request, context)
    if remote is not None:
        results = replace(results, users=(remote, *(user for user in results.users if user.id != remote.id)))
    context.update(
        results=results,
        statuses=results.statuses,
        next_max_id=results.next_max_id,
        # Load more keeps the query: the pager's links carry it before their cursor.
        pager_query=urlencode({"q": results.query}) + "&",
    )
    return timeline_response(request, "timelines/search.html", context)

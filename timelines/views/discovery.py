"""Discovery pages: a tag's public timeline (``/tags/<tag>``) and search (``/search?q=``), both open to
anonymous visitors. The home page's Trending box is rendered by ``home`` from ``selectors.get_trending_tags``.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from socialsite import ratelimits
from timelines import exceptions, selectors, text
from timelines.forms import SearchForm
from timelines.selectors import followed_tags
from timelines.views.params import query_int, viewer_uid
from timelines.views.timeline_pages import PAGE_SIZE, timeline_context, timeline_response

SEARCH_PAGE_SIZE = 20


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
    query, viewer = form.cleaned_data["q"], viewer_uid(request)
    # ``@login@domain`` or an address (issue 22): the account or post it names, looked up on its server first.
    found = selectors.look_up(query=query, viewer_uid=viewer) if not max_id else None
    try:
        results = selectors.search(query=query, viewer_uid=viewer, count=SEARCH_PAGE_SIZE, max_id=max_id)
    except exceptions.EmptyQuery:
        return timeline_response(request, "timelines/search.html", context)
    except exceptions.InvalidQuery as error:
        if found is None:
            form.add_error("q", error.message)
            return _bad_query(request, context)
        results = None  # a long address is no query of words, but what it names is the answer
    results = selectors.with_found(results, found, query=query)
    context.update(
        results=results,
        statuses=results.statuses,
        next_max_id=results.next_max_id,
        # Load more keeps the query: the pager's links carry it before their cursor.
        pager_query=urlencode({"q": results.query}) + "&",
    )
    return timeline_response(request, "timelines/search.html", context)

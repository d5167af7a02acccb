"""Timelines: home, a tag's, and the public (local) one. Pages come from the selectors (through the per-recipient
policy) and are paged by ``Link`` headers on the entries' ids (a repost's own id, as Mastodon pages), with
Mastodon's three cursors (``api.paging``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.statuses import statuses
from api.http import bool_param, endpoint, limit_param, not_found, paginated
from api.paging import above, read_page
from timelines import exceptions, selectors, text
from timelines.records import TimelineEntry


def _page(request: HttpRequest, entries: list[TimelineEntry], limit: int) -> Any:
    return paginated(request, statuses(request, entries), [entry.entry_id for entry in entries], limit=limit)


@endpoint("GET", scopes={"GET": "read:statuses"})
def home(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    limit = limit_param(request)
    try:
        entries = read_page(
            request,
            lambda max_id, since_id, count: selectors.get_status_messages(
                uid=viewer, timeline="home", max_id=max_id, since_id=since_id, count=count
            ),
            limit,
        )
    except exceptions.UnknownUser:
        raise not_found() from None
    return _page(request, entries, limit)


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def tag(request: HttpRequest, name: str) -> Any:
    limit = limit_param(request)
    if not text.is_tag(text.normalize_tag(name.removeprefix("#"))):
        return _page(request, [], limit)
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    entries = read_page(
        request,
        lambda max_id, since_id, count: above(
            selectors.get_tag_timeline(tag=name, count=count, max_id=max_id, viewer_uid=viewer), since_id
        ),
        limit,
    )
    return _page(request, entries, limit)


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def public(request: HttpRequest) -> Any:
    """The site's public posts (everything here is local: ``remote=true`` and ``only_media=true`` are empty)."""
    limit = limit_param(request)
    if bool_param(request, "remote") or bool_param(request, "only_media"):
        return _page(request, [], limit)
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    entries = read_page(
        request,
        lambda max_id, since_id, count: above(
            selectors.get_local_timeline(count=count, max_id=max_id, viewer_uid=viewer), since_id
        ),
        limit,
    )
    return _page(request, entries, limit)

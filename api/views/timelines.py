"""Timelines: home, a tag's, and the public (local) one. Pages come from the selectors (through the per-recipient
policy) and are paged by ``Link`` headers on the entries' ids (a repost's own id, as Mastodon pages)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.statuses import statuses
from api.http import bool_param, endpoint, id_param, limit_param, not_found, paginated
from timelines import exceptions, selectors, text
from timelines.records import TimelineEntry


def _page(request: HttpRequest, entries: list[TimelineEntry], limit: int) -> Any:
    return paginated(request, statuses(request, entries), [entry.entry_id for entry in entries], limit=limit)


@endpoint("GET", scopes={"GET": "read:statuses"})
def home(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    limit = limit_param(request)
    try:
        entries = selectors.get_status_messages(
            uid=viewer,
            timeline="home",
            max_id=id_param(request, "max_id") or None,
            # min_id is read as since_id: the newest page above it (the home has no oldest-first read).
            since_id=id_param(request, "since_id") or id_param(request, "min_id") or None,
            count=limit,
        )
    except exceptions.UnknownUser:
        raise not_found() from None
    return _page(request, entries, limit)


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def tag(request: HttpRequest, name: str) -> Any:
    limit = limit_param(request)
    if not text.is_tag(text.normalize_tag(name.removeprefix("#"))):
        return _page(request, [], limit)
    entries = selectors.get_tag_timeline(
        tag=name,
        count=limit,
        max_id=id_param(request, "max_id") or None,
        viewer_uid=request.viewer_uid,  # type: ignore[attr-defined]
    )
    since = id_param(request, "since_id") or id_param(request, "min_id") or 0
    return _page(request, [entry for entry in entries if entry.entry_id > since], limit)


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def public(request: HttpRequest) -> Any:
    """The site's public posts (everything here is local: ``remote=true`` and ``only_media=true`` are empty)."""
    limit = limit_param(request)
    if bool_param(request, "remote") or bool_param(request, "only_media"):
        return _page(request, [], limit)
    entries = selectors.get_local_timeline(
        count=limit,
        max_id=id_param(request, "max_id") or None,
        viewer_uid=request.viewer_uid,  # type: ignore[attr-defined]
    )
    since = id_param(request, "since_id") or id_param(request, "min_id") or 0
    return _page(request, [entry for entry in entries if entry.entry_id > since], limit)

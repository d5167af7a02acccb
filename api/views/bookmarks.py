"""Bookmarks: ``POST /api/v1/statuses/:id/bookmark`` and ``unbookmark`` (answering with the post, the original
for a reblog, as Mastodon does) and ``GET /api/v1/bookmarks``, the person's saved posts, newest bookmark first,
through the policy at read (a post they may no longer see is left out). Pages are cut by the bookmark's own
cursor, as Mastodon pages by the bookmark's id, never by the post's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest

from api.entities.statuses import status, statuses
from api.http import ApiError, endpoint, id_param, limit_param, not_found, paginated, parse_id
from timelines import exceptions, selectors, services


def _change(request: HttpRequest, status_id: str, service: Callable[..., bool]) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    try:
        target = selectors.get_entry(status_id=parse_id(status_id), viewer_uid=viewer).status.id
        service(uid=viewer, status_id=target)
        shaped = status(request, selectors.get_entry(status_id=target, viewer_uid=viewer))
    except exceptions.StatusNotFound:
        raise not_found() from None
    except exceptions.TooManyBookmarks as error:
        raise ApiError(422, f"Validation failed: {error.message}") from None
    if shaped is None:
        raise not_found()
    return shaped


@endpoint("POST", scopes={"POST": "write:bookmarks"})
def bookmark(request: HttpRequest, status_id: str) -> Any:
    return _change(request, status_id, services.bookmark_status)


@endpoint("POST", scopes={"POST": "write:bookmarks"})
def unbookmark(request: HttpRequest, status_id: str) -> Any:
    return _change(request, status_id, services.unbookmark_status)


@endpoint("GET", scopes={"GET": "read:bookmarks"})
def index(request: HttpRequest) -> Any:
    limit = limit_param(request)
    before = id_param(request, "max_id") or None
    newer_than = id_param(request, "min_id") or None
    if newer_than is not None:
        # min_id: the page just above it (towards the newest), as fetch_previous asks.
        page = selectors.get_bookmarks(
            uid=request.viewer_uid,  # type: ignore[attr-defined]
            count=limit,
            before=before,
            after=newer_than,
            oldest_first=True,
        )
    else:
        page = selectors.get_bookmarks(
            uid=request.viewer_uid,  # type: ignore[attr-defined]
            count=limit,
            before=before,
            after=id_param(request, "since_id") or None,
        )
    return paginated(request, statuses(request, page.entries), page.cursors, limit=limit)

"""``GET /api/v1/favourites``: the posts the person liked, most recent like first (``selectors.get_liked_statuses``,
through the policy at read), with Mastodon's ``Link`` pages cut by the like's time in whole microseconds."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.statuses import statuses
from api.http import endpoint, id_param, limit_param, paginated
from timelines import selectors

MICROS = 1_000_000


def _seconds(cursor: int | None) -> float | None:
    # A like's time is stored as whole microseconds (services.likes): dividing gives back the very score.
    return cursor / MICROS if cursor else None


@endpoint("GET", scopes={"GET": "read:favourites"})
def index(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    limit = limit_param(request)
    before = _seconds(id_param(request, "max_id"))
    newer_than = _seconds(id_param(request, "min_id"))
    if newer_than is not None:
        page = selectors.get_liked_statuses(
            uid=viewer, count=limit, before=before, viewer_uid=viewer, after=newer_than, oldest_first=True
        )
    else:
        since = _seconds(id_param(request, "since_id"))
        page = selectors.get_liked_statuses(uid=viewer, count=limit, before=before, viewer_uid=viewer, after=since)
    cursors = [round(time * MICROS) for time in page.times]
    return paginated(request, statuses(request, page.entries), cursors, limit=limit)

"""Read markers (``/api/v1/markers``): where the person stopped reading their notifications, shared with the
site (opening ``/notifications`` moves it; a client's marker moves the site's unread count), and their home (kept
for apps, ``services.set_home_marker``: the site's pages show the newest first and keep no position of their
own)."""

from __future__ import annotations

import time
from typing import Any

from django.http import HttpRequest

from api.entities.common import iso
from api.http import ApiError, endpoint, list_param, param
from timelines import selectors, services, validation
from timelines.records import ReadMarker


def _marker(mark: int) -> dict[str, Any]:
    # No time is kept with the notifications' mark: updated_at is when it was read.
    return {"last_read_id": str(mark), "version": 0, "updated_at": iso(time.time())}


def _home(marker: ReadMarker) -> dict[str, Any]:
    return {"last_read_id": str(marker.last_read_id), "version": marker.version, "updated_at": iso(marker.updated)}


def _last_read_id(request: HttpRequest, timeline: str) -> int | None:
    """``<timeline>[last_read_id]`` from a form, or ``{"<timeline>": {"last_read_id": ...}}`` in JSON."""
    raw = param(request, f"{timeline}[last_read_id]")
    nested = param(request, timeline)
    if raw is None and isinstance(nested, dict):
        raw = nested.get("last_read_id")
    if raw is None:
        return None
    try:
        return validation.parse_int(str(raw))
    except ValueError:
        raise ApiError(422, "Validation failed: last_read_id must be an id") from None


@endpoint("GET", "POST", scopes={"GET": "read:statuses", "POST": "write:statuses"})
def markers(request: HttpRequest) -> Any:
    uid = request.viewer_uid  # type: ignore[attr-defined]
    if request.method == "GET":
        wanted = list_param(request, "timeline")
        result: dict[str, Any] = {}
        if "notifications" in wanted:
            result["notifications"] = _marker(selectors.get_read_mark(uid=uid))
        if "home" in wanted and (home := selectors.get_home_marker(uid=uid)) is not None:
            result["home"] = _home(home)
        return result
    notifications, home_id = _last_read_id(request, "notifications"), _last_read_id(request, "home")
    result = {}
    if notifications is not None:
        result["notifications"] = _marker(services.mark_notifications_read(uid=uid, up_to=notifications))
    if home_id is not None:
        result["home"] = _home(services.set_home_marker(uid=uid, last_read_id=home_id))
    return result

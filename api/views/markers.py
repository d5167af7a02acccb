"""Read markers (``/api/v1/markers``): where the person stopped reading their notifications, shared with the
site (opening ``/notifications`` moves it; a client's marker moves the site's unread count). The site keeps no
read position for home, so only ``notifications`` has a marker."""

from __future__ import annotations

import time
from typing import Any

from django.http import HttpRequest

from api.entities.common import iso
from api.http import ApiError, endpoint, list_param, param
from timelines import selectors, services, validation


def _marker(mark: int) -> dict[str, Any]:
    # No time is kept with the mark: updated_at is when it was read.
    return {"last_read_id": str(mark), "version": 0, "updated_at": iso(time.time())}


@endpoint("GET", "POST", scopes={"GET": "read:statuses", "POST": "write:statuses"})
def markers(request: HttpRequest) -> Any:
    uid = request.viewer_uid  # type: ignore[attr-defined]
    if request.method == "GET":
        wanted = list_param(request, "timeline")
        if "notifications" not in wanted:
            return {}
        return {"notifications": _marker(selectors.get_read_mark(uid=uid))}
    raw = param(request, "notifications[last_read_id]")
    nested = param(request, "notifications")
    if raw is None and isinstance(nested, dict):
        raw = nested.get("last_read_id")
    result: dict[str, Any] = {}
    if raw is not None:
        try:
            up_to = validation.parse_int(str(raw))
        except ValueError:
            raise ApiError(422, "Validation failed: last_read_id must be an id") from None
        result["notifications"] = _marker(services.mark_notifications_read(uid=uid, up_to=up_to))
    return result

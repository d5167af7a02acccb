"""Notifications: the viewer's, newest first, of the types Mastodon has, filtered by ``types[]`` and
``exclude_types[]``, paged by ``Link`` headers."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.notifications import TYPES, notifications
from api.http import endpoint, id_param, limit_param, list_param, not_found, paginated, parse_id
from timelines import exceptions, selectors, services


@endpoint("GET", scopes={"GET": "read:notifications"})
def index(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    limit = limit_param(request, default=40, maximum=80)
    try:
        items = selectors.get_notifications(uid=viewer, count=limit, max_id=id_param(request, "max_id") or None)
    except exceptions.UnknownUser:
        raise not_found() from None
    cursors = [item.id for item in items]
    since = id_param(request, "since_id") or id_param(request, "min_id") or 0
    wanted = set(list_param(request, "types")) or set(TYPES.values())
    excluded = set(list_param(request, "exclude_types"))
    kept = [
        item
        for item in items
        if item.id > since and TYPES.get(item.kind) in wanted and TYPES.get(item.kind) not in excluded
    ]
    return paginated(request, notifications(request, kept), cursors, limit=limit)


@endpoint("GET", scopes={"GET": "read:notifications"})
def detail(request: HttpRequest, notification_id: str) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    wanted = parse_id(notification_id)
    # The newest notification at or below the id, as a page of one: the one asked for, if it is still there.
    items = selectors.get_notifications(uid=viewer, count=1, max_id=wanted + 1)
    shaped = notifications(request, [item for item in items if item.id == wanted])
    if not shaped:
        raise not_found()
    return shaped[0]


@endpoint("GET", scopes={"GET": "read:notifications"})
def unread_count(request: HttpRequest) -> Any:
    """How many notifications the person has not seen: the site's own count, the header's."""
    return {"count": selectors.get_unread_count(uid=request.viewer_uid)}  # type: ignore[attr-defined]


@endpoint("POST", scopes={"POST": "write:notifications"})
def dismiss(request: HttpRequest, notification_id: str) -> Any:
    """Only the token's person's own notification can go: an id of someone else's is simply not in their feed."""
    if not services.dismiss_notification(uid=request.viewer_uid, notification_id=parse_id(notification_id)):  # type: ignore[attr-defined]
        raise not_found()
    return {}


@endpoint("POST", scopes={"POST": "write:notifications"})
def clear(request: HttpRequest) -> Any:
    services.clear_notifications(uid=request.viewer_uid)  # type: ignore[attr-defined]
    return {}

"""Mastodon's Notification entity from ``selectors.Notification``.

The site's kinds map to Mastodon's types; a reply is Mastodon's ``mention``. Kinds Mastodon has no type for
(an accepted follow request, the moderators' notices) are not sent to clients. ``severed_relationships`` (follows
removed by a suspending domain block) carries its ``event`` and, as in Mastodon, the recipient's own account.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest

from api.entities.accounts import account
from api.entities.common import iso
from api.entities.statuses import plain_entry, statuses
from timelines import selectors
from timelines.selectors.viewer_flags import with_viewer_flags

TYPES = {
    "mention": "mention",
    "reply": "mention",
    "repost": "reblog",
    "like": "favourite",
    "follow": "follow",
    "follow_request": "follow_request",
    "update": "update",  # a post the person reposted was edited
    "severed_relationships": "severed_relationships",
}
# Notifications without an actor (the moderators') that clients still get: their account is the recipient's own.
OWN_ACCOUNT = frozenset({"severed_relationships"})


def _event(event: dict[str, Any]) -> dict[str, Any]:
    """Mastodon's RelationshipSeveranceEvent entity."""
    return {
        "id": str(event.get("id", "")),
        "type": str(event.get("type", "domain_block")),
        "purged": bool(event.get("purged", False)),
        "target_name": str(event.get("target_name", "")),
        "followers_count": int(event.get("followers_count", 0)),
        "following_count": int(event.get("following_count", 0)),
        "created_at": iso(float(event.get("created_at", 0))),
    }


def shown(notifications: Sequence[selectors.Notification]) -> list[selectors.Notification]:
    """The notifications clients get (those of a kind Mastodon has)."""
    return [
        item
        for item in notifications
        if item.kind in TYPES and (item.actor.id or (item.kind in OWN_ACCOUNT and item.event is not None))
    ]


def notifications(request: HttpRequest, items: Sequence[selectors.Notification]) -> list[dict[str, Any]]:
    items = shown(items)
    viewer = getattr(request, "viewer_uid", None)
    uids = list(dict.fromkeys(viewer if item.kind in OWN_ACCOUNT else item.actor.id for item in items))
    people = {user.id: user for user in selectors.get_users(uids=uids)} if uids else {}
    # The person's own flags on each status (favourited, reblogged, bookmarked), as a page of them shows.
    flagged = with_viewer_flags([plain_entry(item.status) for item in items if item.status is not None], viewer=viewer)
    entries = {entry.status.id: entry for entry in flagged}
    result: list[dict[str, Any]] = []
    for item in items:
        actor = people.get(viewer if item.kind in OWN_ACCOUNT else item.actor.id)
        if actor is None:
            continue
        shaped_status = None
        if item.status is not None:
            found = statuses(request, [entries[item.status.id]])
            if not found:
                continue
            shaped_status = found[0]
        shaped = {
            "id": str(item.id),
            "type": TYPES[item.kind],
            "created_at": iso(item.time),
            "group_key": f"ungrouped-{item.id}",
            "account": account(request, actor),
            "status": shaped_status,
        }
        if item.kind in OWN_ACCOUNT and item.event is not None:
            shaped["event"] = _event(item.event)
        result.append(shaped)
    return result

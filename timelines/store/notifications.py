"""Notification feeds (``keys.notifications``): capped, newest first, with an exact unread count.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from typing import Any

from socialsite.redis_client import get_redis
from timelines import keys, limits
from timelines.store.lua import script as _script


def feed_keys(uid: int) -> list[str]:
    """The keys of ``uid``'s feed as ``add_notification.lua`` takes them: the feed, the read mark, the count."""
    return [keys.notifications(uid), keys.notifications_read(uid), keys.notifications_unread(uid)]


def next_notification_id() -> int:
    return int(get_redis().incr(keys.NOTIFICATION_ID_COUNTER))


def add(
    uid: int,
    notification_id: int,
    payload: str,
    *,
    event: tuple[str, str, str] | None = None,
    pipe: Any = None,
) -> int | None:
    """Add one notification (JSON) to ``uid``'s feed, trimmed to ``MAX_NOTIFICATIONS``; returns the unread
    count (None when queued on ``pipe``, a ``store.batch``). ``event``: (channel, the message's text before the
    unread count, after it), published by the script once the notification is in, with the count it made: no
    round trip of its own, and it cannot go out for a notification that failed."""
    args: list[object] = [notification_id, payload, limits.MAX_NOTIFICATIONS, *(event or ())]
    if pipe is not None:
        pipe.script("add_notification", feed_keys(uid), args)
        return None
    return int(_script("add_notification")(keys=feed_keys(uid), args=args))


def page_and_mark(uid: int, *, max_id: int | None, count: int) -> tuple[list[str], int]:
    """``page`` and the read mark (the id of the newest notification seen), in one pipelined round trip."""
    highest = "+inf" if not max_id else f"({max_id}"
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.zrevrangebyscore(keys.notifications(uid), highest, "-inf", start=0, num=count)
        pipe.get(keys.notifications_read(uid))
        payloads, mark = pipe.execute()
    return payloads, int(mark or 0)


def page(uid: int, *, max_id: int | None, count: int) -> list[str]:
    """The JSON of ``uid``'s notifications, newest first, with ids below ``max_id``."""
    highest = "+inf" if not max_id else f"({max_id}"
    return get_redis().zrevrangebyscore(keys.notifications(uid), highest, "-inf", start=0, num=count)


def remove(uid: int, payloads: list[str]) -> None:
    if payloads:
        get_redis().zrem(keys.notifications(uid), *payloads)


def recount_unread(uid: int) -> int:
    """Recount (and store) ``uid``'s unread notifications after some were removed."""
    return int(_script("unread_notifications")(keys=feed_keys(uid)))


def unread(uid: int) -> int:
    return int(get_redis().get(keys.notifications_unread(uid)) or 0)


def mark_read(uid: int, up_to: int = 0) -> int:
    """Mark ``uid``'s notifications read (those up to the id ``up_to``, or all); the read mark. One script."""
    return int(_script("mark_notifications_read")(keys=feed_keys(uid), args=[up_to]))


def remove_by_id(uid: int, notification_id: int = 0) -> int:
    """Remove one notification of ``uid`` (or, with 0, all of them), keeping the unread count exact; how many
    went. One script."""
    return int(_script("remove_notifications")(keys=feed_keys(uid), args=[notification_id]))


def read_mark(uid: int) -> int:
    """The id of the newest notification ``uid`` has seen (0: none)."""
    return int(get_redis().get(keys.notifications_read(uid)) or 0)


def header_counts(uid: int) -> tuple[int, int, int]:
    """The unread notifications, the pending follow requests and the unread conversations of ``uid``, in one
    pipelined round trip."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.get(keys.notifications_unread(uid))
        pipe.zcard(keys.follow_requests(uid))
        pipe.scard(keys.conversations_unread(uid))
        unread, requests, conversations = pipe.execute()
    return int(unread or 0), int(requests), int(conversations)

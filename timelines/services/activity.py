"""Counting activity as it happens, for the admin dashboard (Mastodon's measures): posts per hour, sign-ups
per day, active users per day (who posted, liked or followed: a HyperLogLog, so a user counts once a day),
reports opened and resolved per day. Buckets are UTC hours (``2026112314``) and days (``20261123``) and
expire after 15 days (``store.stats``). A counter that cannot be written never fails the action it counts.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import Any

from redis.exceptions import RedisError

from timelines import store

logger = logging.getLogger(__name__)

POSTS, SIGNUPS, ACTIVE, REPORTS, RESOLVED = "posts", "signups", "active", "reports", "resolved"


def hour_bucket(when: float) -> str:
    return datetime.fromtimestamp(when, tz=UTC).strftime("%Y%m%d%H")


def day_bucket(when: float) -> str:
    return datetime.fromtimestamp(when, tz=UTC).strftime("%Y%m%d")


def _count(
    name: str, buckets: list[str], *, active_uid: int | None = None, day: str | None = None, pipe: Any = None
) -> None:
    try:
        store.stats.count(name, buckets, active_uid=active_uid, day=day, pipe=pipe)
    except RedisError:
        logger.warning("Could not count %s for the dashboard.", name, exc_info=True)


def record_post(*, uid: int, when: float | None = None, pipe: Any = None) -> None:
    """Count a post for the dashboard (on ``pipe``, a ``store.batch``, when given)."""
    when = time.time() if when is None else when
    _count(POSTS, [hour_bucket(when)], active_uid=uid, day=day_bucket(when), pipe=pipe)


def record_active(*, uid: int, when: float | None = None, pipe: Any = None) -> None:
    """A like or a follow: the user was active that day (on ``pipe``, a ``store.batch``, when given)."""
    when = time.time() if when is None else when
    _count(ACTIVE, [], active_uid=uid, day=day_bucket(when), pipe=pipe)


def active_counter(*, when: float) -> tuple[str, int]:
    """The key of the HyperLogLog counting the users active on ``when``'s day, and how long it is kept (for a
    write that counts the user itself, a plain follow's script)."""
    return store.stats.active_key(day_bucket(when)), store.stats.TTL_SECONDS


def record_signup(*, when: float | None = None) -> None:
    _count(SIGNUPS, [day_bucket(time.time() if when is None else when)])


def record_report(*, resolved: bool = False, when: float | None = None) -> None:
    """A report opened (or, with ``resolved``, one resolved)."""
    _count(RESOLVED if resolved else REPORTS, [day_bucket(time.time() if when is None else when)])

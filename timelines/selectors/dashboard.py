"""The admin dashboard's measures (Mastodon's): a week of activity from the counters kept as things happen
(``services.activity``, ``store.stats``), compared with the week before, and what the Redis servers say
about themselves. Nothing here scans the keyspace.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from timelines import store
from timelines.services.activity import ACTIVE, POSTS, REPORTS, RESOLVED, SIGNUPS

DAYS = 7


@dataclass(frozen=True, slots=True)
class Series:
    """One measure over the last ``DAYS`` days: a value per bucket (a day or an hour, UTC, oldest first), its
    total and the total of the ``DAYS`` days before."""

    name: str
    unit: str  # "day" or "hour"
    labels: tuple[str, ...]  # "2026-11-23" or "2026-11-23 14:00"
    values: tuple[int, ...]
    total: int
    previous_total: int

    @property
    def change(self) -> int:
        return self.total - self.previous_total


@dataclass(frozen=True, slots=True)
class Activity:
    signups: Series
    posts: Series
    active: Series
    reports: Series
    resolved: Series
    posts_today: int  # since midnight UTC


@dataclass(frozen=True, slots=True)
class RedisServer:
    address: str
    used_memory: int  # bytes
    keys: int


def _days(end: datetime, count: int) -> list[datetime]:
    start = end.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=count - 1)
    return [start + timedelta(days=n) for n in range(count)]


def _hours(end: datetime, count: int) -> list[datetime]:
    start = end.replace(minute=0, second=0, microsecond=0) - timedelta(hours=count - 1)
    return [start + timedelta(hours=n) for n in range(count)]


def get_activity(*, now: float | None = None) -> Activity:
    """The last ``DAYS`` days (today included) of sign-ups, posts per hour, active users, reports opened and
    resolved, each with the ``DAYS`` days before. One pipelined round trip (every counter shares one slot).

    A series' total counts each bucket once; the active users' total counts a person once over the week."""
    end = datetime.fromtimestamp(time.time() if now is None else now, tz=UTC)
    days = _days(end, 2 * DAYS)
    hours = _hours(end, 2 * DAYS * 24)
    day_buckets = [day.strftime("%Y%m%d") for day in days]
    hour_buckets = [hour.strftime("%Y%m%d%H") for hour in hours]
    reads = [
        (SIGNUPS, day_buckets, False),
        (POSTS, hour_buckets, False),
        (ACTIVE, day_buckets, False),
        (ACTIVE, day_buckets[DAYS:], True),
        (ACTIVE, day_buckets[:DAYS], True),
        (REPORTS, day_buckets, False),
        (RESOLVED, day_buckets, False),
    ]
    signups, posts, active, [active_week], [active_before], reports, resolved = store.stats.read_many(reads)
    day_labels = tuple(day.strftime("%Y-%m-%d") for day in days[DAYS:])
    hour_labels = tuple(hour.strftime("%Y-%m-%d %H:00") for hour in hours[DAYS * 24 :])

    def daily(name: str, values: list[int]) -> Series:
        recent, before = values[DAYS:], values[:DAYS]
        return Series(name, "day", day_labels, tuple(recent), sum(recent), sum(before))

    recent_hours = posts[DAYS * 24 :]
    today = end.strftime("%Y-%m-%d")
    return Activity(
        signups=daily("Sign-ups", signups),
        posts=Series("Posts", "hour", hour_labels, tuple(recent_hours), sum(recent_hours), sum(posts[: DAYS * 24])),
        active=Series("Active users", "day", day_labels, tuple(active[DAYS:]), active_week, active_before),
        reports=daily("Reports opened", reports),
        resolved=daily("Reports resolved", resolved),
        posts_today=sum(
            value for label, value in zip(hour_labels, recent_hours, strict=True) if label.startswith(today)
        ),
    )


def get_redis_servers() -> list[RedisServer]:
    """Memory in use and keys of each Redis server holding social data (each primary of a cluster)."""
    return [RedisServer(address, memory, size) for address, memory, size in store.health.servers()]


def get_idle_homes() -> int:
    """How many homes are idle-dropped now (``services.idle``), from the counter the sweep and the returns keep."""
    return store.idle.dropped_count()

"""Activity counters of the admin dashboard (``keys.moderation.stat``): counted as things happen, in hour or
day buckets that expire, never by scanning the keyspace.

See ``timelines.store`` for the rules every store module follows. Every counter shares the ``{stats}`` hash
tag, so a week of them is one pipeline on one slot.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from socialsite.redis_client import get_redis
from timelines import keys

# Long enough for "the last 7 days" and the 7 before them.
TTL_SECONDS = 15 * 24 * 3600


def count(
    name: str, buckets: Sequence[str], *, active_uid: int | None = None, day: str | None = None, pipe: Any = None
) -> None:
    """Add one to the counter ``name`` in each of ``buckets`` and, with ``active_uid``, count that user as
    active on ``day``. One pipelined round trip, or queued on ``pipe`` (``store.batch``)."""
    if pipe is None:
        with get_redis().pipeline(transaction=False) as own:
            count(name, buckets, active_uid=active_uid, day=day, pipe=own)
            own.execute()
        return
    for bucket in buckets:
        key = keys.stat(name, bucket)
        pipe.incr(key)
        pipe.expire(key, TTL_SECONDS)
    if active_uid is not None and day is not None:
        key = keys.stat("active", day)
        pipe.pfadd(key, active_uid)
        pipe.expire(key, TTL_SECONDS)


def read(name: str, buckets: Sequence[str]) -> list[int]:
    """The counter ``name`` in each bucket (0 where nothing happened). One pipelined round trip."""
    if not buckets:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for bucket in buckets:
            if name == "active":
                pipe.pfcount(keys.stat(name, bucket))
            else:
                pipe.get(keys.stat(name, bucket))
        return [int(value or 0) for value in pipe.execute()]

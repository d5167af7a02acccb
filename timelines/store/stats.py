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
        key = active_key(day)
        pipe.pfadd(key, active_uid)
        pipe.expire(key, TTL_SECONDS)


def active_key(day: str) -> str:
    """The HyperLogLog of the users active on ``day`` (kept ``TTL_SECONDS``)."""
    return keys.stat("active", day)


def read(name: str, buckets: Sequence[str]) -> list[int]:
    """The counter ``name`` in each bucket (0 where nothing happened). One pipelined round trip."""
    if not buckets:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for bucket in buckets:
            if name == "active":
                pipe.execute_command("PFCOUNT", keys.stat(name, bucket))
            else:
                pipe.get(keys.stat(name, bucket))
        return [int(value or 0) for value in pipe.execute()]


def read_many(reads: Sequence[tuple[str, Sequence[str], bool]]) -> list[list[int]]:
    """Several ``read``s in one pipelined round trip: for each (name, buckets, distinct), the counter in each
    bucket, or with ``distinct`` (the ``active`` HyperLogLogs only) one count of the users active in any of
    the buckets. Every key shares the ``{stats}`` tag, so this is one slot on a cluster too."""
    with get_redis().pipeline(transaction=False) as pipe:
        for name, buckets, distinct in reads:
            if distinct:
                pipe.execute_command("PFCOUNT", *[keys.stat(name, bucket) for bucket in buckets])
                continue
            for bucket in buckets:
                if name == "active":
                    # redis-py's cluster pipeline refuses its pfcount(), the command itself is fine in one slot.
                    pipe.execute_command("PFCOUNT", keys.stat(name, bucket))
                else:
                    pipe.get(keys.stat(name, bucket))
        replies = iter(pipe.execute())
    return [
        [int(next(replies) or 0)] if distinct else [int(next(replies) or 0) for _ in buckets]
        for _, buckets, distinct in reads
    ]

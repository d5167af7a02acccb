"""Idle timelines in Redis (``keys.idle``): when each person was last seen, dropping the timelines of people
who stay away, and marking them back when they return.

A visit is written twice: ``seen`` in the user's hash (checked by the drop in the same slot, so a visit and a drop
cannot cross) and the user's entry in a ``seen:{seenN}`` shard (so the sweep finds its candidates without reading
every user). See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys, limits
from timelines.store.lua import run_many
from timelines.store.lua import script as _script


def _shard_of(uid: int) -> str:
    return keys.seen_shard(uid % limits.IDLE_SEEN_SHARDS)


def note_seen(uid: int, when: float) -> int:
    """Record that ``uid`` was seen at ``when``. Returns 1 when their home is idle-dropped, 0 when not, -1 when
    there is no such user (nothing written). Two round trips (the hash, in the user's slot, then the shard)."""
    dropped = int(_script("note_seen")(keys=[keys.user(uid)], args=[repr(when)]))
    if dropped >= 0:
        get_redis().zadd(_shard_of(uid), {str(uid): when})
    return dropped


def mark_seen(uid: int, when: float) -> None:
    """Put ``uid`` in their seen shard at ``when`` (a new user, whose hash was written with ``seen``)."""
    get_redis().zadd(_shard_of(uid), {str(uid): when})


def forget_user(uid: int) -> None:
    """Take ``uid`` out of their seen shard (an erased account)."""
    get_redis().zrem(_shard_of(uid), str(uid))


def unenrolled(uids: Sequence[int]) -> dict[int, float]:
    """Of ``uids``, the users with no seen-shard entry and no dropped home, with their last visit (``seen``, else
    ``signup``, else 0): accounts made before visits were recorded. One pipelined round trip per server."""
    if not uids:
        return {}
    with get_redis().pipeline(transaction=False) as pipe:
        for uid in uids:
            pipe.zscore(_shard_of(uid), str(uid))
            pipe.hmget(keys.user(uid), [keys.SEEN_FIELD, "signup", keys.IDLE_FIELD, "login"])
        replies = pipe.execute()
    found: dict[int, float] = {}
    for uid, score, (seen, signup, dropped, login) in zip(uids, replies[::2], replies[1::2], strict=True):
        if score is None and login is not None and dropped is None:
            found[uid] = float(seen or signup or 0)
    return found


def enroll(seen: dict[int, float]) -> None:
    """Put users in their seen shards at the given times. One pipelined round trip per server."""
    if not seen:
        return
    with get_redis().pipeline(transaction=False) as pipe:
        for uid, when in seen.items():
            pipe.zadd(_shard_of(uid), {str(uid): when})
        pipe.execute()


def candidates(shard: int, cutoff: float, count: int) -> list[int]:
    """At most ``count`` uids of shard ``shard`` last seen before ``cutoff``, longest away first."""
    return [int(uid) for uid in get_redis().zrangebyscore(keys.seen_shard(shard), "-inf", f"({cutoff!r}", 0, count)]


def count_candidates(cutoff: float) -> int:
    """How many people of every shard were last seen before ``cutoff``. One pipelined round trip per server."""
    client = get_redis()
    with client.pipeline(transaction=False) as pipe:
        for shard in range(limits.IDLE_SEEN_SHARDS):
            pipe.zcount(keys.seen_shard(shard), "-inf", f"({cutoff!r}")
        return sum(int(found) for found in pipe.execute())


def forget_seen(shard: int, uids: Sequence[int], cutoff: float) -> None:
    """Take ``uids`` out of shard ``shard`` (their home was dropped: the sweep need not look at them again),
    except those seen again since ``cutoff`` (scripts/forget_seen.lua)."""
    if uids:
        _script("forget_seen")(keys=[keys.seen_shard(shard)], args=[repr(cutoff), *uids])


def reseen(shard: int, seen: dict[int, float]) -> None:
    """Put the last-seen times of users the sweep found still active back into shard ``shard``."""
    if seen:
        get_redis().zadd(keys.seen_shard(shard), {str(uid): when for uid, when in seen.items()})


def drop_homes(uids: Sequence[int], cutoff: float, now: float) -> list[int | float]:
    """Drop the homes of ``uids`` (scripts/drop_idle_timeline.lua) except of those seen since ``cutoff``. For
    each: 1 when dropped now, 0 when it already was, -1 when there is no such user, else when they were last
    seen (a float: kept). One pipelined round trip per server."""
    replies = run_many(
        [
            ("drop_idle_timeline", [keys.user(uid), keys.home_timeline(uid), keys.home_reposts(uid)], [cutoff, now])
            for uid in uids
        ]
    )
    return [float(reply) if isinstance(reply, bytes | str) else int(reply) for reply in replies]


def drop_lists(list_ids: Sequence[int], now: float) -> int:
    """Drop the timelines of ``list_ids`` (their owner's home was dropped); how many were dropped now."""
    replies = run_many(
        [
            (
                "drop_idle_timeline",
                [keys.user_list(list_id), keys.list_timeline(list_id), keys.list_reposts(list_id)],
                ["", now],
            )
            for list_id in list_ids
        ]
    )
    return sum(reply == 1 for reply in replies)


def owned_lists(uids: Sequence[int]) -> list[list[int]]:
    """The ids of the lists each of ``uids`` owns. One pipelined round trip."""
    if not uids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for uid in uids:
            pipe.zrange(keys.lists_of(uid), 0, -1)
        return [[int(list_id) for list_id in found] for found in pipe.execute()]


def wake(owner_key: str) -> bool:
    """Clear the ``idle`` mark of a user or list hash, so writes reach its timeline again; True when it was set."""
    return bool(get_redis().hdel(owner_key, keys.IDLE_FIELD))


def is_dropped(owner_key: str) -> bool:
    return bool(get_redis().hexists(owner_key, keys.IDLE_FIELD))


def dropped_among(owner_keys: Sequence[str]) -> list[bool]:
    """For each user or list hash, whether it holds ``idle``. One pipelined round trip."""
    if not owner_keys:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for key in owner_keys:
            pipe.hexists(key, keys.IDLE_FIELD)
        return [bool(flag) for flag in pipe.execute()]


def count_dropped(change: int) -> None:
    """Move the count of idle-dropped homes by ``change``."""
    if change:
        get_redis().incrby(keys.IDLE_HOMES_COUNTER, change)


def set_dropped_count(count: int) -> None:
    get_redis().set(keys.IDLE_HOMES_COUNTER, count)


def dropped_count() -> int:
    return int(get_redis().get(keys.IDLE_HOMES_COUNTER) or 0)

"""Reading and writing one timeline ZSET (home, profile or list): pages, entries, adds, removals, trims.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from socialsite.redis_client import get_redis
from timelines import keys
from timelines.store.lua import script as _script


def timeline_page(
    key: str, user_key: str, *, max_id: int = 0, since_id: int = 0, offset: int = 0, count: int
) -> list[int] | None:
    """Status ids of one page of a timeline, newest first, or None when the user does not exist.

    One round trip: a plain ZREVRANGE for the common first pages, the cursor script (scripts/timeline_page.lua)
    when paging by id. An empty result costs one more round trip to tell an empty timeline from no user.
    """
    client = get_redis()
    if max_id or since_id:
        ids = _script("timeline_page", client)(keys=[key, user_key], args=[max_id, since_id, offset, count])
        return None if ids is None else [int(status_id) for status_id in ids]
    ids = client.zrevrange(key, offset, offset + count - 1)
    if not ids and not client.exists(user_key):
        return None
    return [int(status_id) for status_id in ids]


def timeline_entries(key: str, *, min_score: float | None = None, limit: int | None = None) -> list[tuple[int, float]]:
    """(status id, posted) pairs of a timeline, newest first, optionally only those posted at or after
    ``min_score`` and at most ``limit`` of them."""
    lowest = "-inf" if min_score is None else repr(min_score)
    if limit is None:
        pairs = get_redis().zrevrangebyscore(key, "+inf", lowest, withscores=True)
    else:
        pairs = get_redis().zrevrangebyscore(key, "+inf", lowest, start=0, num=limit, withscores=True)
    return [(int(member), score) for member, score in pairs]


def timeline_ids_since(key: str, min_score: float) -> list[str]:
    """Ids of a timeline's entries posted at or after ``min_score`` (no scores: callers only remove them)."""
    return get_redis().zrangebyscore(key, repr(min_score), "+inf")


def oldest_score(key: str) -> float | None:
    pairs = get_redis().zrange(key, 0, 0, withscores=True)
    return pairs[0][1] if pairs else None


def timeline_size(key: str) -> int:
    return int(get_redis().zcard(key))


def add_to_timeline(key: str, entries: dict[int, float], *, size: int) -> None:
    """Add (status id -> posted) entries to one timeline and trim it to its ``size`` newest entries."""
    if not entries:
        return
    with get_redis().pipeline(transaction=True) as pipe:
        pipe.zadd(key, {str(status_id): score for status_id, score in entries.items()})
        # Trim in the same transaction so a reader never sees the timeline above its size (book 8.3).
        pipe.zremrangebyrank(key, 0, -size - 1)
        pipe.execute()


def remove_from_timeline(key: str, status_ids: Iterable[int | str]) -> int:
    ids = [str(status_id) for status_id in status_ids]
    if not ids:
        return 0
    return int(get_redis().zrem(key, *ids))


def add_to_guarded_timeline(guard_key: str, key: str, entries: Sequence[tuple[int, float]], *, size: int) -> int:
    """Add (status id, posted) entries to a timeline and trim it to ``size``, only while ``guard_key`` (the
    owner's user or list hash, same slot) exists. Returns how many were new, or -1 when the owner is gone."""
    args: list[str | int] = [size]
    for status_id, score in entries:
        args.extend((repr(score), status_id))
    return int(_script("add_to_timeline")(keys=[guard_key, key], args=args))


def profile_entries_newer_than(
    uids: Sequence[int], min_score: float | None, limit: int
) -> list[list[tuple[int, float]]]:
    """For each of ``uids``, at most ``limit`` (status id, posted) pairs of their profile, newest first, posted
    strictly after ``min_score`` (all when None). One pipelined round trip."""
    lowest = "-inf" if min_score is None else f"({min_score!r}"
    with get_redis().pipeline(transaction=False) as pipe:
        for uid in uids:
            pipe.zrevrangebyscore(keys.profile_timeline(uid), "+inf", lowest, start=0, num=limit, withscores=True)
        return [[(int(member), score) for member, score in pairs] for pairs in pipe.execute()]


def lowest_kept_score(key: str, size: int) -> float | None:
    """The score of the ``size``-th newest entry of a timeline, or None while it holds fewer than ``size``."""
    pairs = get_redis().zrevrange(key, size - 1, size - 1, withscores=True)
    return pairs[0][1] if pairs else None


def timeline_ids(key: str) -> list[int]:
    """Every status id of a timeline, newest first."""
    return [int(member) for member in get_redis().zrevrange(key, 0, -1)]


def trim_timeline(key: str, size: int) -> int:
    """Trim a timeline to its ``size`` newest entries; returns how many were removed."""
    return int(get_redis().zremrangebyrank(key, 0, -size - 1))


def timeline_ids_page(key: str, count: int) -> list[int]:
    """At most ``count`` status ids of a timeline, oldest first (for working through one in passes)."""
    return [int(member) for member in get_redis().zrange(key, 0, count - 1)]

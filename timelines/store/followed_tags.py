"""Followed tags in Redis (``keys.followed_tags``): each person's followed tags and each tag's followers.

See ``timelines.store`` for the rules every store module follows. A follow is two single-slot steps, the
person's set first, so a re-run after a failure between them completes it; both are idempotent (ZADD NX, ZREM).
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys


def follow_tag(uid: int, tag: str, when: float, *, limit: int) -> int:
    """Add ``tag`` to ``uid``'s followed tags and ``uid`` to the tag's followers. 1 when added, 0 when already
    followed, -1 when ``uid`` already follows ``limit`` tags (nothing written). Two round trips."""
    redis = get_redis()
    mine = keys.followed_tags(uid)
    with redis.pipeline(transaction=False) as pipe:
        # Two racing follows may pass the limit by one: it bounds memory, and a re-check costs a script.
        pipe.zscore(mine, tag)
        pipe.zcard(mine)
        known, size = pipe.execute()
    if known is None and size >= limit:
        return -1
    added = int(redis.zadd(mine, {tag: when}, nx=True))
    # Written even when the person's set already held it: this completes a follow interrupted between the two.
    redis.zadd(keys.tag_followers(tag), {str(uid): when}, nx=True)
    return added


def unfollow_tag(uid: int, tag: str) -> bool:
    """Remove ``tag`` from ``uid``'s followed tags and ``uid`` from its followers; True when it was followed."""
    redis = get_redis()
    removed = bool(redis.zrem(keys.followed_tags(uid), tag))
    redis.zrem(keys.tag_followers(tag), str(uid))
    return removed


def followed_page(uid: int, *, after: float | None, before: float | None, count: int) -> list[tuple[str, float]]:
    """(tag, followed at) of ``uid``, oldest follow first, strictly between ``after`` and ``before`` (seconds,
    None: open), at most ``count``. One ZRANGE BYSCORE."""
    low = f"({after!r}" if after is not None else "-inf"
    high = f"({before!r}" if before is not None else "+inf"
    return get_redis().zrangebyscore(keys.followed_tags(uid), low, high, start=0, num=count, withscores=True)


def followed_newest(uid: int, *, before: float | None, after: float | None, count: int) -> list[tuple[str, float]]:
    """(tag, followed at) of ``uid``, most recent follow first, strictly between ``after`` and ``before``."""
    high = f"({before!r}" if before is not None else "+inf"
    low = f"({after!r}" if after is not None else "-inf"
    return get_redis().zrevrangebyscore(keys.followed_tags(uid), high, low, start=0, num=count, withscores=True)


def follows_tags(uid: int, tags: Sequence[str]) -> list[bool]:
    """Whether ``uid`` follows each of ``tags``, in order (one ZMSCORE)."""
    if not tags:
        return []
    return [score is not None for score in get_redis().zmscore(keys.followed_tags(uid), list(tags))]


def reached_otherwise(uids: Sequence[str], *, author: int, earlier_tags: Sequence[str]) -> list[bool]:
    """For each of ``uids``: whether a post of ``author`` reaches them some other way than the tag at hand, being
    the author, following the author (their home gets it from the author's followers) or following one of
    ``earlier_tags`` (an earlier tag of the same post delivered it). One pipelined round trip, one single-slot
    command or two per person."""
    if not uids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for uid in uids:
            pipe.zscore(keys.following(int(uid)), author)
            if earlier_tags:
                pipe.zmscore(keys.followed_tags(int(uid)), list(earlier_tags))
        replies = pipe.execute()
    step = 2 if earlier_tags else 1
    reached = []
    for index, uid in enumerate(uids):
        follows_author = replies[index * step] is not None
        earlier = earlier_tags and any(score is not None for score in replies[index * step + 1])
        reached.append(int(uid) == author or follows_author or bool(earlier))
    return reached


def forget_person(uid: int) -> None:
    """Take ``uid`` out of the followers of every tag they follow, and drop their followed tags (an account
    erased). Two round trips."""
    redis = get_redis()
    tags = redis.zrange(keys.followed_tags(uid), 0, -1)
    with redis.pipeline(transaction=False) as pipe:
        for tag in tags:
            pipe.zrem(keys.tag_followers(tag), str(uid))
        pipe.delete(keys.followed_tags(uid))
        pipe.execute()

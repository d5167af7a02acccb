"""Likes (``keys.likes``): who liked a status (with its exact ``like_count``) and what a user liked.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys
from timelines.store.lua import script as _script


def add_liker(status_id: int, uid: int, when: float) -> int:
    """The status's side of a like: 1 added, 0 already liked, -1 status gone (nothing written)."""
    return int(
        _script("set_counted")(
            keys=[keys.status(status_id), keys.likers(status_id)], args=["add", uid, repr(when), "like_count"]
        )
    )


def remove_liker(status_id: int, uid: int) -> int:
    """The status's side of an unlike: 1 removed, 0 was not liked."""
    return int(
        _script("set_counted")(
            keys=[keys.status(status_id), keys.likers(status_id)], args=["remove", uid, 0, "like_count"]
        )
    )


def add_like(uid: int, status_id: int, when: float) -> None:
    """The user's side of a like (an existing like keeps its first time)."""
    get_redis().zadd(keys.likes_of(uid), {str(status_id): when}, nx=True)


def remove_like(uid: int, status_id: int) -> None:
    get_redis().zrem(keys.likes_of(uid), status_id)


def remove_likes(uids: Sequence[int | str], status_id: int) -> None:
    """Take a deleted status out of the likes of ``uids``. One pipelined round trip."""
    if not uids:
        return
    with get_redis().pipeline(transaction=False) as pipe:
        for uid in uids:
            pipe.zrem(keys.likes_of(uid), status_id)
        pipe.execute()


def liked_page(
    uid: int, *, before: float | None, count: int, after: float | None = None, oldest_first: bool = False
) -> list[tuple[int, float]]:
    """(status id, like time) of ``uid``'s likes, newest like first, liked strictly between ``after`` and
    ``before``: the newest ``count`` of them, or with ``oldest_first`` the ``count`` just after ``after``."""
    highest = "+inf" if before is None else f"({before!r}"
    lowest = "-inf" if after is None else f"({after!r}"
    client = get_redis()
    if oldest_first:
        pairs = client.zrangebyscore(keys.likes_of(uid), lowest, highest, start=0, num=count, withscores=True)
        pairs.reverse()
    else:
        pairs = client.zrevrangebyscore(keys.likes_of(uid), highest, lowest, start=0, num=count, withscores=True)
    return [(int(member), score) for member, score in pairs]


def likers(status_id: int, *, count: int) -> list[int]:
    """The uids of the latest ``count`` people who liked ``status_id``, most recent first. One ZREVRANGE."""
    return [int(uid) for uid in get_redis().zrevrange(keys.likers(status_id), 0, max(0, count - 1))]

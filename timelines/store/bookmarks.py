"""Bookmarks (``keys.bookmarks``): the posts a person saved, newest bookmark first, each scored by a strictly
increasing time in microseconds that pages use as their cursor.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys
from timelines.store.lua import script as _script


def add_bookmark(uid: int, status_id: int, now_micros: int, cap: int) -> int:
    """1 added, 0 already bookmarked (it keeps its place), -1 the person has ``cap`` bookmarks already."""
    return int(_script("add_bookmark")(keys=[keys.bookmarks_of(uid)], args=[status_id, now_micros, cap]))


def remove_bookmark(uid: int, status_id: int) -> bool:
    """True when it was bookmarked."""
    return bool(get_redis().zrem(keys.bookmarks_of(uid), status_id))


def remove_bookmarks(uid: int, status_ids: Sequence[int]) -> int:
    if not status_ids:
        return 0
    return int(get_redis().zrem(keys.bookmarks_of(uid), *status_ids))


def bookmark_page(
    uid: int, *, below: int | None = None, above: int | None = None, oldest_first: bool = False, count: int
) -> list[tuple[int, int]]:
    """(status id, cursor) of ``uid``'s bookmarks with a cursor strictly between ``above`` and ``below``, newest
    first; with ``oldest_first``, the ``count`` just above ``above`` (still returned newest first). One command."""
    low = "-inf" if above is None else f"({above}"
    high = "+inf" if below is None else f"({below}"
    client = get_redis()
    if oldest_first:
        pairs = client.zrangebyscore(keys.bookmarks_of(uid), low, high, start=0, num=count, withscores=True)
        pairs.reverse()
    else:
        pairs = client.zrevrangebyscore(keys.bookmarks_of(uid), high, low, start=0, num=count, withscores=True)
    return [(int(member), int(score)) for member, score in pairs]


def all_bookmarks(uid: int) -> list[int]:
    """Every status id ``uid`` bookmarked (at most ``limits.MAX_BOOKMARKS``). One command."""
    return [int(member) for member in get_redis().zrange(keys.bookmarks_of(uid), 0, -1)]

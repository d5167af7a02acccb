"""The search index in Redis (``keys.search``): the word sets of statuses, sharded by status id, and the
prefix indexes of people and tags (tags are added by ``store.tags``).

See ``timelines.store`` for the rules every store module follows. The words of one status all live in its
shard's slot, so indexing or unindexing a status is one pipeline on one slot, and a query is one script per
shard (scripts/search_shard.lua), the sixteen of them pipelined.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from socialsite.redis_client import get_redis
from timelines import keys, limits
from timelines.store.lua import run_many


def index_words(status_id: int, words: Collection[str], *, pipe: Any = None) -> None:
    """Add a status to the set of each of its words, in its shard. One pipelined round trip, or queued on
    ``pipe`` (``store.batch``); idempotent."""
    if not words:
        return
    shard = keys.search_shard(status_id)
    if pipe is not None:
        for word in words:
            pipe.zadd(keys.search_word(shard, word), {str(status_id): status_id})
        return
    with get_redis().pipeline(transaction=False) as own:
        index_words(status_id, words, pipe=own)
        own.execute()


def unindex_words(status_id: int, words: Collection[str]) -> None:
    """Remove a status from the sets of its words. One pipelined round trip; idempotent (ZREM)."""
    if not words:
        return
    shard = keys.search_shard(status_id)
    with get_redis().pipeline(transaction=False) as pipe:
        for word in words:
            pipe.zrem(keys.search_word(shard, word), status_id)
        pipe.execute()


def indexed_words(status_id: int, words: Collection[str]) -> list[str]:
    """The words of ``words`` whose set holds the status. One pipelined round trip."""
    if not words:
        return []
    shard = keys.search_shard(status_id)
    ordered = list(words)
    with get_redis().pipeline(transaction=False) as pipe:
        for word in ordered:
            pipe.zscore(keys.search_word(shard, word), status_id)
        found = pipe.execute()
    return [word for word, score in zip(ordered, found, strict=True) if score is not None]


def find_status_ids(words: Collection[str], *, max_id: int, count: int) -> list[int]:
    """The ``count`` newest ids of statuses that contain every one of ``words``, below ``max_id`` (0: no bound),
    newest first. One pipelined round trip of one script per shard; each shard returns at most ``count``, so
    the merge is exact."""
    ordered = sorted(words)
    calls = [
        ("search_shard", [keys.search_word(shard, word) for word in ordered], [max_id, count])
        for shard in range(limits.SEARCH_SHARDS)
    ]
    found = {int(status_id) for ids in run_many(calls) for status_id in ids}
    return sorted(found, reverse=True)[:count]


def name_entry(name: str, uid: int) -> str:
    """The member of ``keys.SEARCH_USERS`` that finds ``uid`` by ``name`` (a login or a display name)."""
    return f"{name.lower()}\x00{uid}"


def update_names(*, remove: Iterable[str] = (), add: Iterable[str] = ()) -> None:
    """Remove and add entries of the people index (``name_entry``). One pipelined round trip; idempotent."""
    remove, add = list(remove), list(add)
    if not remove and not add:
        return
    with get_redis().pipeline(transaction=False) as pipe:
        if remove:
            pipe.zrem(keys.SEARCH_USERS, *remove)
        if add:
            pipe.zadd(keys.SEARCH_USERS, dict.fromkeys(add, 0))
        pipe.execute()


def uids_with_prefix(prefix: str, limit: int) -> list[int]:
    """Uids whose login or display name starts with ``prefix`` (lowercased), in the index's byte order, each
    once, from at most ``limit`` entries of the index. One round trip."""
    found: dict[int, None] = {}
    for member in members_with_prefix(keys.SEARCH_USERS, prefix.lower(), limit):
        found.setdefault(int(member.rpartition("\x00")[2]))
    return list(found)


def tags_with_prefix(prefix: str, limit: int) -> list[str]:
    """Known tags that start with ``prefix`` (already normalised), in byte order, at most ``limit``. One round
    trip."""
    return members_with_prefix(keys.SEARCH_TAGS, prefix, limit)


def members_with_prefix(key: str, prefix: str, limit: int) -> list[str]:
    """Members of a lexicographic ZSET (all scores 0) that start with ``prefix``, at most ``limit``."""
    low = b"[" + prefix.encode()
    # 0xff never occurs in UTF-8, so it sorts after every member that starts with the prefix.
    high = b"(" + prefix.encode() + b"\xff"
    return get_redis().zrangebylex(key, low, high, start=0, num=limit)

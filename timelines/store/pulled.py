"""Hybrid fan-out in Redis (``keys.pulled``): the posts of accounts too followed to push, and the merge of those
into a home page when it is read.

On one server the merge is part of the page read's one script (``scripts/read_page.lua`` in "merged" mode, with
``scripts/merge_pulled.lua``). On a cluster ``merged_ids`` does the same in two more pipelined round trips (the
registry and the reader's follows, then the chosen accounts' pulled posts). See ``timelines.store`` for the rules
every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys, limits


def pulled_template() -> str:
    """A pulled:{uid} key with "\\0" where the uid goes (the merge script builds the keys it reads)."""
    return keys.pulled_posts("\0")


def add(uid: int, status_id: int, posted: float) -> None:
    """Record a post (or repost) of ``uid`` that was not pushed: in ``pulled:{uid}`` (trimmed to the newest
    ``HOME_TIMELINE_SIZE``) and ``uid`` in the registry. Idempotent. One pipelined round trip (two slots)."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.zadd(keys.pulled_posts(uid), {str(status_id): status_id})
        # Trim on every insert, as a home is: a reader pages back through at most as many pulled posts.
        pipe.zremrangebyrank(keys.pulled_posts(uid), 0, -limits.HOME_TIMELINE_SIZE - 1)
        pipe.zadd(keys.PULLED_AUTHORS, {str(uid): posted}, gt=True)
        pipe.execute()


def remove(uid: int, status_id: int) -> bool:
    """Take a deleted post out of ``pulled:{uid}``; True when it was a pulled post."""
    return bool(get_redis().zrem(keys.pulled_posts(uid), str(status_id)))


def forget_author(uid: int) -> None:
    """Take ``uid`` out of the registry (an erased account; its ``pulled:{uid}`` goes with its other keys)."""
    get_redis().zrem(keys.PULLED_AUTHORS, str(uid))


def follower_count(uid: int) -> int:
    return int(get_redis().zcard(keys.followers(uid)))


def first_ids_and_registry(key: str, user_key: str, count: int) -> tuple[list[int] | None, list[str]]:
    """The first ``count`` ids of a home (``store.timelines.timeline_page`` without cursors: None when it is empty
    and its owner does not exist) and the registry ``merged_ids`` needs, in one pipelined round trip (two slots)."""
    client = get_redis()
    with client.pipeline(transaction=False) as pipe:
        pipe.zrevrange(key, 0, count - 1)
        pipe.zrevrange(keys.PULLED_AUTHORS, 0, -1)
        ids, registry = pipe.execute()
    if not ids and not client.exists(user_key):
        return None, registry
    return [int(status_id) for status_id in ids], registry


def merged_ids(
    ids: Sequence[int],
    uid: int,
    *,
    max_id: int,
    since_id: int,
    want: int,
    cap: int,
    registry: Sequence[str] | None = None,
) -> list[int]:
    """``ids`` (the first ``want`` of ``uid``'s home after the cursors, newest first) with the pulled posts of the
    accounts ``uid`` follows merged in, newest first, at most ``want``: what ``scripts/merge_pulled.lua`` returns,
    in pipelines (a cluster). Reads the whole registry (it holds only the accounts past the pull threshold) unless
    the caller read it (``first_ids_and_registry``)."""
    client = get_redis()
    if registry is None:
        registry = client.zrevrange(keys.PULLED_AUTHORS, 0, -1)
    if not registry or cap <= 0:
        return list(ids)
    followed = client.zmscore(keys.following(uid), registry)
    chosen = [author for author, score in zip(registry, followed, strict=True) if score is not None][:cap]
    if not chosen:
        return list(ids)
    top = f"({max_id}" if max_id else "+inf"
    bottom = f"({since_id}" if since_id else "-inf"
    with client.pipeline(transaction=False) as pipe:
        for author in chosen:
            pipe.zrevrangebyscore(keys.pulled_posts(author), top, bottom, start=0, num=want)
        found = pipe.execute()
    merged = set(ids) | {int(status_id) for posts in found for status_id in posts}
    return sorted(merged, reverse=True)[:want]


def followed_authors(uid: int, limit: int) -> tuple[list[int], list[int]]:
    """The registry (the accounts whose posts are pulled, at most ``limit`` of the most recently active) and those
    of them ``uid`` follows. Two round trips (the registry and ``following:{uid}`` are two slots)."""
    client = get_redis()
    authors = client.zrevrange(keys.PULLED_AUTHORS, 0, limit - 1)
    if not authors:
        return [], []
    scores = client.zmscore(keys.following(uid), authors)
    followed = [int(author) for author, score in zip(authors, scores, strict=True) if score is not None]
    return [int(author) for author in authors], followed

"""Privacy and safety in Redis (``keys.privacy``): account flags, follow requests, blocks and mutes, and the
one read the per-recipient policy makes for a batch.

Each relation is two single-key writes (the actor's side first); each is idempotent, so a retry completes an
interrupted change. See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from socialsite.redis_client import get_redis
from timelines import keys

FLAGS = ("private", "suspended", "limited")


def set_flag(uid: int, flag: str, on: bool) -> None:
    """Set or clear one account flag in ``user:{uid}`` (only on a user that exists)."""
    client = get_redis()
    if on:
        if client.exists(keys.user(uid)):
            client.hset(keys.user(uid), flag, 1)
    else:
        client.hdel(keys.user(uid), flag)


def add_pair(forward: str, backward: str, member: int, other: int, when: float) -> bool:
    """Add ``member`` to ``forward`` and ``other`` to ``backward`` (the two sides of a relation); True if
    ``forward`` changed. One pipelined round trip of two single-key commands."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.zadd(forward, {str(member): when})
        pipe.zadd(backward, {str(other): when})
        added, _ = pipe.execute()
    return bool(added)


def remove_pair(forward: str, backward: str, member: int, other: int) -> bool:
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.zrem(forward, member)
        pipe.zrem(backward, other)
        removed, _ = pipe.execute()
    return bool(removed)


def members(key: str, *, count: int, offset: int = 0) -> list[int]:
    """Members of a relation set, most recent first."""
    return [int(uid) for uid in get_redis().zrevrange(key, offset, offset + count - 1)]


def size(key: str) -> int:
    return int(get_redis().zcard(key))


def is_member(key: str, member: int) -> bool:
    return get_redis().zscore(key, member) is not None


@dataclass(frozen=True, slots=True)
class Relations:
    """What the policy knows about a batch: each author's flags, and the (recipient, author) pairs that block
    one another (either way), where the recipient mutes the author, and where the recipient follows the
    author."""

    flags: dict[int, frozenset[str]]
    blocked: frozenset[tuple[int, int]]
    muted: frozenset[tuple[int, int]]
    follows: frozenset[tuple[int, int]]

    @property
    def empty(self) -> bool:
        return not (self.blocked or self.muted or any(self.flags.values()))


def relations(recipients: Sequence[int], authors: Sequence[int]) -> Relations:
    """Read the relations between ``recipients`` and ``authors`` in one pipelined round trip: from the
    authors' side when there are fewer authors (a fan-out), from the recipients' side otherwise (a page)."""
    with get_redis().pipeline(transaction=False) as pipe:
        for author in authors:
            pipe.hmget(keys.user(author), list(FLAGS))
        by_author = len(authors) <= len(recipients)
        sides, others = (authors, recipients) if by_author else (recipients, authors)
        if others:
            for side in sides:
                wanted = [str(other) for other in others]
                if by_author:
                    for key in (keys.blocks, keys.blocked_by, keys.muted_by, keys.followers):
                        pipe.zmscore(key(side), wanted)
                else:
                    for key in (keys.blocks, keys.blocked_by, keys.mutes, keys.following):
                        pipe.zmscore(key(side), wanted)
        replies = pipe.execute()
    flags = {
        author: frozenset(flag for flag, value in zip(FLAGS, values, strict=True) if value)
        for author, values in zip(authors, replies[: len(authors)], strict=True)
    }
    blocked: set[tuple[int, int]] = set()
    muted: set[tuple[int, int]] = set()
    follows: set[tuple[int, int]] = set()
    rest = replies[len(authors) :]
    if others:
        for index, side in enumerate(sides):
            blocks, blocked_by, mute, follow = rest[4 * index : 4 * index + 4]

            def pair(other: int, side: int = side) -> tuple[int, int]:
                # (recipient, author), whichever side was read.
                return (other, side) if by_author else (side, other)

            collect: list[tuple[set[tuple[int, int]], list[float | None]]] = [
                (blocked, blocks),
                (blocked, blocked_by),
                (muted, mute),
                (follows, follow),
            ]
            for target, scores in collect:
                target.update(pair(other) for other, score in zip(others, scores, strict=True) if score is not None)
    return Relations(flags, frozenset(blocked), frozenset(muted), frozenset(follows))


def viewer_relations(viewer: int, other: int) -> dict[str, bool]:
    """What ``relations`` does not say about one viewer and one other account: a pending request, and which
    way a block goes. One pipelined round trip."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.zscore(keys.follow_requested(viewer), other)
        pipe.zscore(keys.blocks(viewer), other)
        pipe.zscore(keys.blocks(other), viewer)
        pipe.zscore(keys.following(other), viewer)
        requested, blocking, blocked_by, followed_by = pipe.execute()
    return {
        "requested": requested is not None,
        "blocking": blocking is not None,
        "blocked_by": blocked_by is not None,
        "followed_by": followed_by is not None,
    }

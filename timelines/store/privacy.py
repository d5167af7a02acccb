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


def related(uid: int, *, count: int) -> set[int]:
    """Whom ``uid`` blocks, is blocked by or mutes (the newest ``count`` of each). One pipelined round trip of
    three single-key reads."""
    with get_redis().pipeline(transaction=False) as pipe:
        for key in (keys.blocks(uid), keys.blocked_by(uid), keys.mutes(uid)):
            pipe.zrevrange(key, 0, count - 1)
        replies = pipe.execute()
    return {int(member) for members in replies for member in members}


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

    def with_follow(self, follower: int, followee: int) -> Relations:
        """The same relations once ``follower`` follows ``followee`` (a follow's copy is judged as after it)."""
        return Relations(self.flags, self.blocked, self.muted, self.follows | {(follower, followee)})


# From this many recipients on, a fan-out batch reads an author's blocks and mutes whole (usually a handful of
# ids) instead of asking about each recipient: ZMSCORE of 10,000 recipients against a set that is nearly
# always empty sends and parses 10,000 nils, three times per batch.
WHOLE_SET_FROM = 100


def relations(
    recipients: Sequence[int],
    authors: Sequence[int],
    *,
    followers_of: int | None = None,
    hashes: dict[int, dict[str, str]] | None = None,
) -> Relations:
    """Read the relations between ``recipients`` and ``authors`` in one pipelined round trip: from the
    authors' side when there are fewer authors (a fan-out), from the recipients' side otherwise (a page).

    For many recipients (``WHOLE_SET_FROM``), an author's blocks and mutes are read whole, up to one more
    member than there are recipients; a set longer than that (an author blocking more people than a batch
    holds) is asked about the recipients in a second round trip. ``followers_of``: an author every recipient is
    known to follow (a fan-out batch read from its followers); that follow is not read again (a ZMSCORE of
    10,000 recipients costs a third of the batch's writes). ``hashes``: filled with each author's whole hash
    (empty for a missing user), read in place of the flags in the same round trip (a follow's existence and
    remote checks)."""
    by_author = len(authors) <= len(recipients)
    sides, others = (authors, recipients) if by_author else (recipients, authors)
    side_keys = (
        (keys.blocks, keys.blocked_by, keys.muted_by, keys.followers)
        if by_author
        else (keys.blocks, keys.blocked_by, keys.mutes, keys.following)
    )
    wanted = [str(other) for other in others]
    among = set(others)
    # Between the same few users both ways (a follow's pair), blocked_by:{s} holding o is blocks:{o} holding s:
    # the blocks read answer both, and blocked_by is not read ("mirror").
    mirrored = len(sides) < WHOLE_SET_FROM and among == set(sides)
    # How each (side, set) is read, in order: "scores" (ZMSCORE of the others), "whole" (the set itself, when
    # it is likely small), "all" (known to hold every other: nothing to read) or "mirror" (from the blocks read).
    plan: list[tuple[str, str]] = []
    with get_redis().pipeline(transaction=False) as pipe:
        for author in authors:
            if hashes is None:
                pipe.hmget(keys.user(author), list(FLAGS))
            else:
                pipe.hgetall(keys.user(author))
        for side in sides if others else ():
            for set_key in side_keys:
                key = set_key(side)
                if by_author and set_key is keys.followers and side == followers_of:
                    plan.append(("all", key))
                elif mirrored and set_key is keys.blocked_by:
                    plan.append(("mirror", key))
                elif by_author and set_key is not keys.followers and len(others) >= WHOLE_SET_FROM:
                    plan.append(("whole", key))
                    pipe.zrange(key, 0, len(others))
                else:
                    plan.append(("scores", key))
                    pipe.zmscore(key, wanted)
        replies = pipe.execute()
    flag_replies, set_replies = replies[: len(authors)], iter(replies[len(authors) :])
    if hashes is not None:
        hashes.update(zip(authors, flag_replies, strict=True))
        flag_replies = [[found.get(flag) for flag in FLAGS] for found in flag_replies]
    # For each (side, set), the others it holds.
    present: list[set[int]] = []
    too_long: list[int] = []
    for how, _ in plan:
        if how == "all":
            present.append(among)
            continue
        if how == "mirror":
            present.append(set())
            continue
        reply = next(set_replies)
        if how == "scores":
            present.append({other for other, score in zip(others, reply, strict=True) if score is not None})
        else:
            if len(reply) > len(others):
                too_long.append(len(present))
            present.append({int(member) for member in reply} & among)
    if too_long:
        with get_redis().pipeline(transaction=False) as pipe:
            for position in too_long:
                pipe.zmscore(plan[position][1], wanted)
            for position, scores in zip(too_long, pipe.execute(), strict=True):
                present[position] = {other for other, score in zip(others, scores, strict=True) if score is not None}
    if mirrored:
        # blocked_by:{side} holds each other whose blocks:{other} holds side (every other is a side too).
        blocks_of = {side: present[4 * position] for position, side in enumerate(sides)}
        for position, side in enumerate(sides):
            present[4 * position + 1] = {other for other in others if side in blocks_of[other]}
    flags = {
        author: frozenset(flag for flag, value in zip(FLAGS, values, strict=True) if value)
        for author, values in zip(authors, flag_replies, strict=True)
    }
    blocked: set[tuple[int, int]] = set()
    muted: set[tuple[int, int]] = set()
    follows: set[tuple[int, int]] = set()
    for position, side in enumerate(sides):
        blocks, blocked_by, mute, follow = present[4 * position : 4 * position + 4]
        # (recipient, author), whichever side was read.
        for target, found in ((blocked, blocks), (blocked, blocked_by), (muted, mute), (follows, follow)):
            target.update(((other, side) for other in found) if by_author else ((side, other) for other in found))
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

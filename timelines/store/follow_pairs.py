"""A follow read and made in one step on one server (``scripts/follow_pair.lua``): the two users' hashes and the
relations between them both ways, which the follow's checks, its copy and its notification are judged by, and the
follow itself with its notification id when nothing read stands in its way (a block, a private or remote
followee not followed yet), and, in the plain case, the rest of the follow the caller prepared (``FollowTail``).
What the script leaves unwritten the caller decides about; on a Redis Cluster, where
the keys span slots, it returns None and the caller reads (``privacy.relations``) and writes (``graph``) in round
trips of their own.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from socialsite.redis_client import is_cluster
from timelines import keys, limits
from timelines.store.copies import library_parts
from timelines.store.graph import Follow
from timelines.store.lua import Call, run
from timelines.store.notifications import feed_keys
from timelines.store.privacy import FLAGS, Relations

# What the follow reads of each user's hash: the policy's flags, and the domain of another server's account.
FIELDS = (*FLAGS, "domain")


@dataclass(frozen=True, slots=True)
class FollowTail:
    """The rest of a new follow, prepared for the plain case (neither user has a flag or a domain, no block or
    mute either way, neither followed the other), which ``follow_if_open`` does with the follow when it reads
    that case: the copy of the followee's statuses into the follower's home (``copy``; without it, only when the
    followee has none), the followee's notification (``notification``: its JSON
    before the id the script takes and after it, and its event's text before the unread count and after it;
    None when the policy does not let the followee receive it), the follower counted in the day's active users
    (``active_key``, kept ``active_ttl`` seconds), and the follow's ``event`` on ``channel``."""

    channel: str
    event: str
    active_key: str
    active_ttl: int
    notification: tuple[str, str, str, str] | None
    copy: Call | None = None  # the copy of the followee's statuses (``copies.follow_copy_call``), when it has any


@dataclass(frozen=True, slots=True)
class PairFollow:
    """What ``follow_if_open`` read and did: each user's account flags and domain as stored (``FIELDS``), with
    ``id`` so that an existing user's dict is never empty (an empty dict: a missing user), the relations
    between the two as ``privacy.relations([uid, other], [other, uid])`` reads them (before the follow), and the
    follow when it was written (None: nothing written), and then how many statuses the followee's profile held
    (none: the follow has nothing to copy; one posted since is delivered to the new follower by its fan-out)."""

    hashes: dict[int, dict[str, str]]
    relations: Relations
    follow: Follow | None
    followee_statuses: int = 0
    tail_done: bool = False  # the FollowTail was done with the follow
    copied: Any = None  # then, when it copied: the copy's reply, as ``copies.copy_from_reply`` reads it


def in_one_step() -> bool:
    """Whether ``follow_if_open`` reads and writes (one server), so that a ``FollowTail`` is worth preparing."""
    return not is_cluster()


def follow_if_open(
    uid: int, other_uid: int, score: float, *, take_id: bool = False, tail: FollowTail | None = None
) -> PairFollow | None:
    """Read ``uid`` and ``other_uid`` and the relations between them, and make ``uid`` follow ``other_uid`` at
    ``score`` (both sides, as ``graph.add_follow``; with ``take_id`` a notification id is taken too) when both
    exist, neither blocks the other, and ``uid`` already follows or ``other_uid``'s hash holds neither
    ``private`` nor ``domain``; then ``tail`` (with ``take_id``) when the follow is new and plain
    (``FollowTail``). One round trip on one server; None on a cluster, with
    nothing read or written."""
    if is_cluster():
        return None
    call_keys = [
        keys.user(uid),
        keys.user(other_uid),
        keys.following(uid),
        keys.followers(other_uid),
        keys.followers(uid),
        keys.blocks(uid),
        keys.blocks(other_uid),
        keys.muted_by(uid),
        keys.muted_by(other_uid),
        keys.profile_timeline(other_uid),
    ]
    args: list[object] = [uid, other_uid, repr(score), len(FIELDS), *FIELDS]
    if take_id:
        call_keys.append(keys.NOTIFICATION_ID_COUNTER)
        if tail is not None:
            call_keys += [*feed_keys(other_uid), tail.active_key]
            args += [tail.channel, tail.event, tail.active_ttl]
            if tail.notification:
                payload_before, payload_after, event_before, event_after = tail.notification
                args += ["1", payload_before, payload_after, limits.MAX_NOTIFICATIONS, event_before, event_after]
            else:
                args += ["0", "", "", "", "", ""]
            if tail.copy is not None:
                copy_keys, copy_args = library_parts(tail.copy)
                call_keys += copy_keys
                args += ["1", *copy_args]
    reply = run("follow_pair", call_keys, args)
    mine, theirs = _as_dict(reply[0], uid), _as_dict(reply[1], other_uid)
    blocked, mine_mutes, theirs_mutes, mine_follows, theirs_follows, written = (int(value) for value in reply[2:8])
    relations = Relations(
        flags={
            other_uid: frozenset(flag for flag in FLAGS if theirs.get(flag)),
            uid: frozenset(flag for flag in FLAGS if mine.get(flag)),
        },
        blocked=frozenset({(uid, other_uid), (other_uid, uid)} if blocked else ()),
        muted=frozenset(
            pair for pair, found in (((uid, other_uid), mine_mutes), ((other_uid, uid), theirs_mutes)) if found
        ),
        follows=frozenset(
            pair for pair, found in (((uid, other_uid), mine_follows), ((other_uid, uid), theirs_follows)) if found
        ),
    )
    follow = None
    if written:
        follow = Follow(int(reply[8]), int(reply[9]), int(reply[10]) if take_id else None)
    tail_done = bool(int(reply[12]))
    copied = reply[13] if tail_done and isinstance(reply[13], list) else None
    return PairFollow({uid: mine, other_uid: theirs}, relations, follow, int(reply[11]), tail_done, copied)


def _as_dict(values: list[str | None] | int, uid: int) -> dict[str, str]:
    """The fields read (and ``id``) of an existing user; empty for a missing one (the script's 0)."""
    if not isinstance(values, list):
        return {}
    return {"id": str(uid), **{name: value for name, value in zip(FIELDS, values, strict=True) if value is not None}}

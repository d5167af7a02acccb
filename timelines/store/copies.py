"""Copying an author's newest statuses into a timeline (a follow, a list add; book listing 8.4's copy).

Each status is judged by the per-recipient policy as stored, but nearly no status holds a field the policy
reads (``policy.Policy.status_fields``: whether it is private, whose post a repost carries), and the others are
judged by their author alone. So the copy takes that one verdict (``copy_plain``), writes the statuses
holding none of the fields on the server, and hands back only those that do, for the caller to judge and add
with ``store.timelines.add_to_guarded_timeline``.

On one server that is one script (``scripts/copy_profile.lua``): the 1,000 ids never travel to the client and
back, and the author's ``keys.profile_held`` (the statuses holding ``status_hash.HELD_FIELDS``, kept by
``store.statuses`` on every add and removal) says which to hand back without reading 1,000 hashes. The first
copy of a profile makes that set from the hashes it reads. On a Redis Cluster the profile, the statuses and
the timeline are in different slots, so it is three round trips: the profile's entries, the statuses' fields
(``store.statuses.get_status_fields``), the add.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from socialsite.redis_client import is_cluster
from timelines import keys
from timelines.store.lua import Call
from timelines.store.lua import script as _script
from timelines.store.status_hash import HELD_FIELDS, names_to_read, picked
from timelines.store.statuses import get_status_fields
from timelines.store.timelines import add_to_guarded_timeline, timeline_entries


@dataclass(frozen=True, slots=True)
class Copy:
    """What a copy did: how many statuses were new to the timeline (-1: its owner is gone, nothing written),
    and the statuses it left for the caller to judge, as (status id, posted, the fields they hold), newest
    first."""

    added: int
    held: list[tuple[int, float, dict[str, str]]]


def copy_profile(
    guard_key: str, key: str, author: int, *, size: int, limit: int, copy_plain: bool, names: Sequence[str]
) -> Copy:
    """Copy ``author``'s newest ``limit`` statuses holding none of the fields ``names`` into the timeline
    ``key`` (when ``copy_plain``) and trim it to ``size``, only while ``guard_key`` (its owner's hash, same
    slot) exists; return them with the statuses that hold any of ``names``, which are not copied."""
    profile = keys.profile_timeline(author)
    if is_cluster():
        return _copy_in_round_trips(guard_key, key, profile, size=size, limit=limit, copy_plain=copy_plain, names=names)
    call = _call(guard_key, key, author, size=size, limit=limit, copy_plain=copy_plain, names=names)
    return copy_from_reply(_script(call[0])(keys=call[1], args=call[2]), names)


def follow_copy_call(
    uid: int,
    author: int,
    score: float,
    *,
    size: int,
    limit: int,
    copy_plain: bool,
    names: Sequence[str],
    event: tuple[str, str] | None = None,
) -> Call | None:
    """``copy_profile`` of ``author`` into ``uid``'s home as a script call to send with the follow's own writes,
    after them (``store.graph.add_follow``) or after it was made (a batch): it copies only when ``uid`` follows
    ``author`` since ``score``, the follow just made, and writes nothing otherwise. ``event`` (channel, message):
    published by the script when any status was new. Its reply reads with ``copy_from_reply``. None on a cluster,
    where the copy takes round trips of its own (``copy_profile``)."""
    if is_cluster():
        return None
    name, call_keys, args = _call(
        keys.user(uid), keys.home_timeline(uid), author, size=size, limit=limit, copy_plain=copy_plain, names=names
    )
    channel, message = event or ("", "")
    return name, [*call_keys, keys.following(uid)], [*args[:5], author, repr(score), channel, message, *args[5:]]


def library_parts(call: Call) -> tuple[list[str], list[Any]]:
    """A ``follow_copy_call``'s keys and arguments as a script that made the follow itself passes them on to the
    library ``scripts/profile_copy.lua``: the timeline and ``keys.profile_held`` of the author, then the size,
    the limit, ``copy_plain``, the status key, whether the held set answers, the event's channel and message, and
    the policy's fields."""
    _, call_keys, args = call
    _owner, timeline, _profile, held, _following = call_keys
    size, limit, copy_plain, status_key, indexed, _author, _score, channel, message, *names = args
    return [timeline, held], [size, limit, copy_plain, status_key, indexed, channel, message, *names]


def _call(
    guard_key: str, key: str, author: int, *, size: int, limit: int, copy_plain: bool, names: Sequence[str]
) -> Call:
    asked = names_to_read(names) if names else []
    indexed = set(names) <= set(HELD_FIELDS)  # what profile:held answers for
    return (
        "copy_profile",
        [guard_key, key, keys.profile_timeline(author), keys.profile_held(author)],
        [size, limit, int(copy_plain), keys.status("\0"), int(indexed), *asked],
    )


def copy_from_reply(reply: list[Any], names: Sequence[str]) -> Copy:
    """``Copy`` from ``scripts/copy_profile.lua``'s reply, for the policy's fields ``names``."""
    added, flat = reply
    step = 2 + len(names_to_read(names) if names else [])
    held = [
        (int(flat[start]), float(flat[start + 1]), picked(names, flat[start + 2 : start + step]))
        for start in range(0, len(flat), step)
    ]
    return Copy(int(added), held)


def _copy_in_round_trips(
    guard_key: str, key: str, profile: str, *, size: int, limit: int, copy_plain: bool, names: Sequence[str]
) -> Copy:
    recent = timeline_entries(profile, limit=limit)
    stored = get_status_fields([status_id for status_id, _ in recent], names)
    held = [(status_id, score, fields) for (status_id, score), fields in zip(recent, stored, strict=True) if fields]
    plain = [(status_id, score) for (status_id, score), fields in zip(recent, stored, strict=True) if not fields]
    # With nothing to write, the add still tells whether the owner exists.
    return Copy(add_to_guarded_timeline(guard_key, key, plain if copy_plain else [], size=size), held)

"""Sets of ids with a counter beside them: followers/following, list members, a user's lists.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redis.cluster import RedisCluster

from socialsite.redis_client import get_redis
from timelines import keys
from timelines.store.lua import Call, execute, queue, run_many
from timelines.store.lua import script as _script


def graph_add(set_key: str, user_key: str, member: int, score: float, counter: str) -> int:
    """Add ``member`` to a followers/following set and reset the counter (1 added, 0 already, -1 no user)."""
    return int(_script("graph_add")(keys=[set_key, user_key], args=[member, repr(score), counter]))


def graph_remove(set_key: str, user_key: str, member: int, counter: str) -> int:
    """Remove ``member`` from a followers/following set and reset the counter (1 removed, 0 absent)."""
    return int(_script("graph_remove")(keys=[set_key, user_key], args=[member, counter]))


@dataclass(frozen=True, slots=True)
class Follow:
    """What ``add_follow`` did: each side's ``graph_add`` result (1 added, 0 already, -1 no such user), the
    notification id it took (None: none taken), and the reply of the copy sent with it (None: none sent)."""

    added: int
    theirs: int
    notification_id: int | None = None
    copied: Any = None


def add_follow(uid: int, other_uid: int, score: float, *, take_id: bool = False, copy: Call | None = None) -> Follow:
    """Both sides of ``uid`` following ``other_uid`` (``graph_add`` of each, the follower's side first, the
    followee's side written even when the first changed nothing, which completes an interrupted follow). One
    pipelined round trip per server; idempotent. On one server, with ``take_id`` a notification id is taken in
    the same round trip (the follow's notification; a gap in the ids when none is sent), and ``copy``
    (``store.copies.follow_copy_call``, which copies only for the follow just made) runs after the two sides."""
    calls: list[Call] = [
        ("graph_add", [keys.following(uid), keys.user(uid)], [other_uid, repr(score), "following"]),
        ("graph_add", [keys.followers(other_uid), keys.user(other_uid)], [uid, repr(score), "followers"]),
    ]
    client = get_redis()
    if isinstance(client, RedisCluster) or not (take_id or copy):
        mine, theirs = run_many(calls)
        return Follow(int(mine), int(theirs))
    sent: list[Call | None] = list(calls)
    with client.pipeline(transaction=False) as pipe:
        for call in calls:
            queue(pipe, client, *call)
        if take_id:
            pipe.incr(keys.NOTIFICATION_ID_COUNTER)
            sent.append(None)
        if copy is not None:
            queue(pipe, client, *copy)
            sent.append(copy)
        mine, theirs, *rest = execute(pipe, client, sent)
    taken = int(rest.pop(0)) if take_id else None
    return Follow(int(mine), int(theirs), taken, rest[0] if copy is not None else None)


@dataclass(frozen=True, slots=True)
class Unfollow:
    """What ``remove_follow`` did and read: whether there was a follow, the score of the oldest entry of the
    follower's home (None: empty), the followee's newest ``recent`` status ids (newest first), and the score
    of the status after them, the newest one left out (None when the profile holds no more)."""

    removed: bool
    oldest: float | None
    recent: list[str]
    recent_floor: float | None


def remove_follow(uid: int, other_uid: int, *, recent: int = 0) -> Unfollow | None:
    """Both sides of ``uid`` unfollowing ``other_uid`` (``graph_remove`` of each, the follower's side first),
    with the score of the oldest entry of ``uid``'s home, which bounds what the unfollow must take out of it,
    and the followee's ``recent`` newest status ids (read after the removal). None when either user does not
    exist: each side then changes nothing for a missing user, and the other side finds no edge to a missing
    user. One pipelined round trip on one server (scripts/remove_followee.lua, scripts/graph_remove.lua and the
    profile's ZREVRANGEs); on a cluster one per node, then the profile. Idempotent."""
    calls: list[Call | None] = [
        ("remove_followee", [keys.following(uid), keys.user(uid), keys.home_timeline(uid)], [other_uid]),
        ("graph_remove", [keys.followers(other_uid), keys.user(other_uid)], [uid, "followers", "strict"]),
    ]
    profile = keys.profile_timeline(other_uid)
    client = get_redis()
    if isinstance(client, RedisCluster):
        mine, theirs = run_many(calls)  # type: ignore[arg-type]
        with client.pipeline(transaction=False) as pipe:
            pipe.zrevrange(profile, 0, recent - 1)
            pipe.zrevrange(profile, recent, recent, withscores=True)
            ids, last = pipe.execute() if recent else ([], [])
    else:
        with client.pipeline(transaction=False) as pipe:
            for call in calls:
                queue(pipe, client, *call)  # type: ignore[misc]
            if recent:
                pipe.zrevrange(profile, 0, recent - 1)
                pipe.zrevrange(profile, recent, recent, withscores=True)
                calls += [None, None]
            mine, theirs, *read = execute(pipe, client, calls)
        ids, last = read if recent else ([], [])
    if int(mine[0]) < 0 or int(theirs) < 0:
        return None
    return Unfollow(
        removed=bool(int(mine[0])),
        oldest=float(mine[1]) if len(mine) > 1 else None,
        recent=ids,
        recent_floor=last[0][1] if last else None,
    )


def graph_remove_many(pairs: Sequence[tuple[str, str]], member: int, counter: str) -> None:
    """``graph_remove`` of one member from many (set, counter hash) pairs, each its own single-slot script.
    One pipelined round trip; idempotent."""
    run_many([("graph_remove", [set_key, hash_key], [member, counter]) for set_key, hash_key in pairs])


def followers_after(uid: int, cursor: tuple[float, str] | None, count: int) -> list[tuple[str, float]]:
    """The next ``count`` followers of ``uid`` after ``cursor`` (score, member) in ZSET order."""
    return members_after(keys.followers(uid), cursor, count)


def members_after(key: str, cursor: tuple[float, str] | None, count: int) -> list[tuple[str, float]]:
    """The next ``count`` (member, score) pairs of any ZSET after ``cursor`` (score, member), in ZSET order:
    followers:{uid}, following:{uid}, list:in:{id} or list:out:{uid} (scripts/followers_after.lua)."""
    score, member = ("-inf", "") if cursor is None else (repr(cursor[0]), cursor[1])
    flat = _script("followers_after")(keys=[key], args=[score, member, count])
    return [(flat[i], float(flat[i + 1])) for i in range(0, len(flat), 2)]


def member_ids_after(key: str, cursor: tuple[float, str] | None, count: int) -> tuple[list[str], float | None]:
    """``members_after`` without the scores, for a fan-out: the next ``count`` members of a ZSET after
    ``cursor`` (score, member), and the score of the last one (None when there is none)."""
    score, member = ("-inf", "") if cursor is None else (repr(cursor[0]), cursor[1])
    reply = _script("followers_after")(keys=[key], args=[score, member, count, "ids"])
    if not reply:
        return [], None
    return reply[1:], float(reply[0])


def members_after_many(requests: Sequence[tuple[str, tuple[float, str] | None, int]]) -> list[list[tuple[str, float]]]:
    """``members_after`` for several (key, cursor, count) requests in one pipelined round trip per server."""
    calls = []
    for key, cursor, count in requests:
        score, member = ("-inf", "") if cursor is None else (repr(cursor[0]), cursor[1])
        calls.append(("followers_after", [key], [score, member, count]))
    return [[(flat[i], float(flat[i + 1])) for i in range(0, len(flat), 2)] for flat in run_many(calls)]


def set_add_capped(set_key: str, hash_key: str, member: int, score: float, counter: str, limit: int) -> int:
    """Add ``member`` to a set of limited size and reset its counter (1 added, 0 already, -1 no hash,
    -2 full); scripts/set_add_capped.lua."""
    return int(_script("set_add_capped")(keys=[set_key, hash_key], args=[member, repr(score), counter, limit]))


def recount(set_key: str, hash_key: str, counter: str) -> int:
    """Set a counter from the size of the set it counts; -1 if the hash does not exist."""
    return int(_script("recount")(keys=[set_key, hash_key], args=[counter]))


def set_members(key: str, *, offset: int, count: int) -> list[int]:
    """Members of a followers/following set, most recent first."""
    return [int(member) for member in get_redis().zrevrange(key, offset, offset + count - 1)]


def set_size(key: str) -> int:
    return int(get_redis().zcard(key))


def memberships(key: str, members: Sequence[int]) -> list[bool]:
    """Whether each of ``members`` is in the set at ``key`` (one ZMSCORE)."""
    if not members:
        return []
    return [score is not None for score in get_redis().zmscore(key, [str(member) for member in members])]


def member_scores(key: str, members: Sequence[int | str]) -> list[float | None]:
    """The score of each of ``members`` in the set at ``key``, None where absent (one ZMSCORE)."""
    if not members:
        return []
    return get_redis().zmscore(key, [str(member) for member in members])


def member_in_each(set_keys: Sequence[str], member: int | str) -> list[bool]:
    """Whether ``member`` is in each of ``set_keys``, in order. One pipelined round trip."""
    if not set_keys:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for key in set_keys:
            pipe.zscore(key, member)
        return [score is not None for score in pipe.execute()]


def set_entries(key: str) -> list[tuple[int, float]]:
    """Every (member, score) of a set of ids, in ZSET order."""
    return [(int(member), score) for member, score in get_redis().zrange(key, 0, -1, withscores=True)]


def set_sizes(set_keys: Sequence[str]) -> list[int]:
    """ZCARD of each key, in order. One pipelined round trip."""
    if not set_keys:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for key in set_keys:
            pipe.zcard(key)
        return [int(size) for size in pipe.execute()]


def keys_exist(names: Sequence[str]) -> list[bool]:
    """Whether each key exists, in order. One pipelined round trip."""
    if not names:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for name in names:
            pipe.exists(name)
        return [bool(found) for found in pipe.execute()]


def delete_keys(*names: str) -> None:
    get_redis().delete(*names)


def memberships_in_each(set_keys: Sequence[str], members: Sequence[int | str]) -> list[list[bool]]:
    """For each set, whether each of ``members`` is in it. One pipelined round trip of ZMSCOREs."""
    if not set_keys or not members:
        return [[False] * len(members) for _ in set_keys]
    with get_redis().pipeline(transaction=False) as pipe:
        for key in set_keys:
            pipe.zmscore(key, [str(member) for member in members])
        return [[score is not None for score in scores] for scores in pipe.execute()]

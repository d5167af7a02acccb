"""Plain data access for the social graph: the only timelines module that sends Redis commands.

Functions here know keys and commands, not rules: services decide what to write and in which order,
selectors decide what to read. Each function is one round trip (a command, a pipeline or a Lua script) unless
its docstring says otherwise. Lua scripts live beside this file in ``scripts/`` and are registered once per
client; every script touches the keys of one hash slot only (see ``keys.py``).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from redis import Redis
from redis.commands.core import Script
from redis.exceptions import WatchError

from socialsite.redis_client import get_redis
from timelines import keys

SCRIPTS_DIR = Path(__file__).resolve().parent / "scripts"

_registered: weakref.WeakKeyDictionary[Redis, dict[str, Script]] = weakref.WeakKeyDictionary()


@cache
def _script_source(name: str) -> str:
    return (SCRIPTS_DIR / f"{name}.lua").read_text()


def _script(name: str, client: Redis | None = None) -> Script:
    """The registered script ``scripts/<name>.lua`` for ``client`` (EVALSHA, loaded on first miss)."""
    client = client or get_redis()
    per_client = _registered.setdefault(client, {})
    script = per_client.get(name)
    if script is None:
        script = per_client[name] = client.register_script(_script_source(name))
    return script


# --- users -------------------------------------------------------------------------------------------


def next_user_id() -> int:
    return int(get_redis().incr(keys.USER_ID_COUNTER))


def write_user(uid: int, fields: dict[str, str | int | float]) -> None:
    get_redis().hset(keys.user(uid), mapping=fields)


def claim_login(lowered_login: str, uid: int) -> bool:
    """Map a lowercased login to ``uid`` unless it is already taken (HSETNX: one winner under any race)."""
    return bool(get_redis().hsetnx(keys.USERS_BY_LOGIN, lowered_login, uid))


def release_login(lowered_login: str, uid: int) -> None:
    """Undo ``claim_login`` for ``uid`` only; a login claimed by someone else is left alone."""
    client = get_redis()
    with client.pipeline(transaction=True) as pipe:
        # WATCH/MULTI: the mapping may change between the read and the delete; retry until it does not.
        while True:
            try:
                pipe.watch(keys.USERS_BY_LOGIN)
                if pipe.hget(keys.USERS_BY_LOGIN, lowered_login) != str(uid):
                    pipe.unwatch()
                    return
                pipe.multi()
                pipe.hdel(keys.USERS_BY_LOGIN, lowered_login)
                pipe.execute()
                return
            except WatchError:
                continue


def delete_user(uid: int) -> None:
    get_redis().delete(
        keys.user(uid), keys.profile_timeline(uid), keys.home_timeline(uid), keys.followers(uid), keys.following(uid)
    )


def get_uid_by_login(lowered_login: str) -> int | None:
    value = get_redis().hget(keys.USERS_BY_LOGIN, lowered_login)
    return int(value) if value is not None else None


def get_user(uid: int) -> dict[str, str]:
    return get_redis().hgetall(keys.user(uid))


def get_users(uids: Sequence[int]) -> list[dict[str, str]]:
    """User hashes for ``uids``, in order; an unknown uid gives ``{}``. One pipelined round trip."""
    if not uids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for uid in uids:
            pipe.hgetall(keys.user(uid))
        return pipe.execute()


def last_ids() -> tuple[int, int]:
    """The last status id and the last user id handed out so far (0 when none). One pipelined round trip."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.hget(keys.STATUS_ID_COUNTER, "last")
        pipe.get(keys.USER_ID_COUNTER)
        last_status, last_user = pipe.execute()
    return int(last_status or 0), int(last_user or 0)


# --- statuses ----------------------------------------------------------------------------------------


def next_status_id() -> tuple[int, int]:
    """A new status id and its posted time in microseconds, both strictly increasing (one script)."""
    status_id, micros = _script("next_status_id")(keys=[keys.STATUS_ID_COUNTER])
    return int(status_id), int(micros)


def write_status(status_id: int, fields: dict[str, str | int | float]) -> None:
    get_redis().hset(keys.status(status_id), mapping=fields)


def add_to_profile(uid: int, status_id: int, posted: float) -> int:
    """Add a status to its author's profile and home (trimmed) and reset ``posts``; -1 if no such user."""
    return int(
        _script("add_to_profile")(
            keys=[keys.profile_timeline(uid), keys.home_timeline(uid), keys.user(uid)],
            args=[status_id, repr(posted), keys.HOME_TIMELINE_SIZE],
        )
    )


def get_status(status_id: int) -> dict[str, str]:
    return get_redis().hgetall(keys.status(status_id))


def get_statuses(status_ids: Sequence[int | str]) -> list[dict[str, str]]:
    """Status hashes for ``status_ids``, in order; a deleted status gives ``{}``. One pipelined round trip."""
    if not status_ids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for status_id in status_ids:
            pipe.hgetall(keys.status(status_id))  # ints, or digit strings straight from Redis
        return pipe.execute()


def status_exists(status_id: int) -> bool:
    return bool(get_redis().exists(keys.status(status_id)))


def statuses_exist(status_ids: Sequence[int | str]) -> list[bool]:
    """Whether each status hash still exists, in order. One pipelined round trip."""
    if not status_ids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for status_id in status_ids:
            pipe.exists(keys.status(int(status_id)))
        return [bool(found) for found in pipe.execute()]


def status_authors(status_ids: Sequence[int | str]) -> list[int | None]:
    """The author uid of each status, or None where the status hash is gone. One pipelined round trip."""
    if not status_ids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for status_id in status_ids:
            pipe.hget(keys.status(int(status_id)), "uid")
        return [int(uid) if uid is not None else None for uid in pipe.execute()]


def delete_status_if_owner(status_id: int, uid: int) -> tuple[str, dict[str, str]]:
    """Delete ``status:{id}`` if ``uid`` wrote it. Returns ("deleted", old fields), ("missing", {}) or
    ("not_owner", {})."""
    reply = _script("delete_status")(keys=[keys.status(status_id)], args=[uid])
    outcome, flat = reply[0], reply[1:]
    return outcome, dict(zip(flat[::2], flat[1::2], strict=True))


def remove_from_author(uid: int, status_id: int) -> int:
    return int(
        _script("remove_from_author")(
            keys=[keys.profile_timeline(uid), keys.home_timeline(uid), keys.user(uid)], args=[status_id]
        )
    )


# --- timelines ---------------------------------------------------------------------------------------


def timeline_page(
    key: str, user_key: str, *, max_id: int = 0, since_id: int = 0, offset: int = 0, count: int
) -> list[int] | None:
    """Status ids of one page of a timeline, newest first, or None when the user does not exist.

    One round trip: a plain ZREVRANGE for the common first pages, the cursor script (scripts/timeline_page.lua)
    when paging by id. An empty result costs one more round trip to tell an empty timeline from no user.
    """
    client = get_redis()
    if max_id or since_id:
        ids = _script("timeline_page", client)(keys=[key, user_key], args=[max_id, since_id, offset, count])
        return None if ids is None else [int(status_id) for status_id in ids]
    ids = client.zrevrange(key, offset, offset + count - 1)
    if not ids and not client.exists(user_key):
        return None
    return [int(status_id) for status_id in ids]


def timeline_entries(key: str, *, min_score: float | None = None, limit: int | None = None) -> list[tuple[int, float]]:
    """(status id, posted) pairs of a timeline, newest first, optionally only those posted at or after
    ``min_score`` and at most ``limit`` of them."""
    lowest = "-inf" if min_score is None else repr(min_score)
    if limit is None:
        pairs = get_redis().zrevrangebyscore(key, "+inf", lowest, withscores=True)
    else:
        pairs = get_redis().zrevrangebyscore(key, "+inf", lowest, start=0, num=limit, withscores=True)
    return [(int(member), score) for member, score in pairs]


def timeline_ids_since(key: str, min_score: float) -> list[str]:
    """Ids of a timeline's entries posted at or after ``min_score`` (no scores: callers only remove them)."""
    return get_redis().zrangebyscore(key, repr(min_score), "+inf")


def oldest_score(key: str) -> float | None:
    pairs = get_redis().zrange(key, 0, 0, withscores=True)
    return pairs[0][1] if pairs else None


def timeline_size(key: str) -> int:
    return int(get_redis().zcard(key))


def add_to_timeline(key: str, entries: dict[int, float], *, size: int) -> None:
    """Add (status id -> posted) entries to one timeline and trim it to its ``size`` newest entries."""
    if not entries:
        return
    with get_redis().pipeline(transaction=True) as pipe:
        pipe.zadd(key, {str(status_id): score for status_id, score in entries.items()})
        # Trim in the same transaction so a reader never sees the timeline above its size (book 8.3).
        pipe.zremrangebyrank(key, 0, -size - 1)
        pipe.execute()


def remove_from_timeline(key: str, status_ids: Iterable[int | str]) -> int:
    ids = [str(status_id) for status_id in status_ids]
    if not ids:
        return 0
    return int(get_redis().zrem(key, *ids))


def push_to_home_timelines(uids: Sequence[int | str], status_id: int, posted: float) -> None:
    """Add one status to the home timelines of ``uids`` and trim each one (book listing 8.7). One script
    (scripts/push_to_timelines.lua); ZADD and the trim are idempotent, so re-running a batch changes nothing."""
    if not uids:
        return
    _script("push_to_timelines")(
        keys=[keys.home_timeline(int(uid)) for uid in uids], args=[keys.HOME_TIMELINE_SIZE, repr(posted), status_id]
    )


def add_to_guarded_timeline(guard_key: str, key: str, entries: Sequence[tuple[int, float]], *, size: int) -> int:
    """Add (status id, posted) entries to a timeline and trim it to ``size``, only while ``guard_key`` (the
    owner's user or list hash, same slot) exists. Returns how many were new, or -1 when the owner is gone."""
    args: list[str | int] = [size]
    for status_id, score in entries:
        args.extend((repr(score), status_id))
    return int(_script("add_to_timeline")(keys=[guard_key, key], args=args))


def push_to_list_timelines(list_ids: Sequence[int | str], status_id: int, posted: float) -> list[bool]:
    """Add one status to the timelines of ``list_ids`` and trim each, skipping lists deleted meanwhile.
    One pipelined round trip of single-slot scripts; re-running it changes nothing."""
    if not list_ids:
        return []
    client = get_redis()
    script = _script("add_to_timeline", client)
    with client.pipeline(transaction=False) as pipe:
        for list_id in list_ids:
            script(
                keys=[keys.user_list(int(list_id)), keys.list_timeline(int(list_id))],
                args=[keys.HOME_TIMELINE_SIZE, repr(posted), status_id],
                client=pipe,
            )
        return [int(added) >= 0 for added in pipe.execute()]


def remove_from_timelines(timeline_keys: Sequence[str], status_id: int) -> int:
    """Remove one status id from many timelines; returns how many held it. One script
    (scripts/remove_from_timelines.lua); idempotent (ZREM)."""
    if not timeline_keys:
        return 0
    return int(_script("remove_from_timelines")(keys=list(timeline_keys), args=[status_id]))


def profile_entries_newer_than(
    uids: Sequence[int], min_score: float | None, limit: int
) -> list[list[tuple[int, float]]]:
    """For each of ``uids``, at most ``limit`` (status id, posted) pairs of their profile, newest first, posted
    strictly after ``min_score`` (all when None). One pipelined round trip."""
    lowest = "-inf" if min_score is None else f"({min_score!r}"
    with get_redis().pipeline(transaction=False) as pipe:
        for uid in uids:
            pipe.zrevrangebyscore(keys.profile_timeline(uid), "+inf", lowest, start=0, num=limit, withscores=True)
        return [[(int(member), score) for member, score in pairs] for pairs in pipe.execute()]


def lowest_kept_score(key: str, size: int) -> float | None:
    """The score of the ``size``-th newest entry of a timeline, or None while it holds fewer than ``size``."""
    pairs = get_redis().zrevrange(key, size - 1, size - 1, withscores=True)
    return pairs[0][1] if pairs else None


def timeline_ids(key: str) -> list[int]:
    """Every status id of a timeline, newest first."""
    return [int(member) for member in get_redis().zrevrange(key, 0, -1)]


def trim_timeline(key: str, size: int) -> int:
    """Trim a timeline to its ``size`` newest entries; returns how many were removed."""
    return int(get_redis().zremrangebyrank(key, 0, -size - 1))


def start_refill_run(timeline_key: str) -> int:
    """Number a new refill run of a timeline; older runs see a newer number and stop."""
    key = keys.refill_run(timeline_key)
    with get_redis().pipeline(transaction=True) as pipe:
        pipe.incr(key)
        # A run finishes in seconds; the number only needs to outlive it.
        pipe.expire(key, keys.REFILL_RUN_TTL_SECONDS)
        run, _ = pipe.execute()
    return int(run)


def current_refill_run(timeline_key: str) -> int | None:
    value = get_redis().get(keys.refill_run(timeline_key))
    return int(value) if value is not None else None


# --- the follower graph ------------------------------------------------------------------------------


def graph_add(set_key: str, user_key: str, member: int, score: float, counter: str) -> int:
    """Add ``member`` to a followers/following set and reset the counter (1 added, 0 already, -1 no user)."""
    return int(_script("graph_add")(keys=[set_key, user_key], args=[member, repr(score), counter]))


def graph_remove(set_key: str, user_key: str, member: int, counter: str) -> int:
    """Remove ``member`` from a followers/following set and reset the counter (1 removed, 0 absent)."""
    return int(_script("graph_remove")(keys=[set_key, user_key], args=[member, counter]))


def graph_remove_many(pairs: Sequence[tuple[str, str]], member: int, counter: str) -> None:
    """``graph_remove`` of one member from many (set, counter hash) pairs, each its own single-slot script.
    One pipelined round trip; idempotent."""
    if not pairs:
        return
    client = get_redis()
    script = _script("graph_remove", client)
    with client.pipeline(transaction=False) as pipe:
        for set_key, hash_key in pairs:
            script(keys=[set_key, hash_key], args=[member, counter], client=pipe)
        pipe.execute()


def followers_after(uid: int, cursor: tuple[float, str] | None, count: int) -> list[tuple[str, float]]:
    """The next ``count`` followers of ``uid`` after ``cursor`` (score, member) in ZSET order."""
    return members_after(keys.followers(uid), cursor, count)


def members_after(key: str, cursor: tuple[float, str] | None, count: int) -> list[tuple[str, float]]:
    """The next ``count`` (member, score) pairs of any ZSET after ``cursor`` (score, member), in ZSET order:
    followers:{uid}, following:{uid}, list:in:{id} or list:out:{uid} (scripts/followers_after.lua)."""
    score, member = ("-inf", "") if cursor is None else (repr(cursor[0]), cursor[1])
    flat = _script("followers_after")(keys=[key], args=[score, member, count])
    return [(flat[i], float(flat[i + 1])) for i in range(0, len(flat), 2)]


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


def last_id(counter: str) -> int:
    """The last id handed out by an INCR counter such as ``user:id:`` (0 if none yet)."""
    return int(get_redis().get(counter) or 0)


def delete_keys(*names: str) -> None:
    get_redis().delete(*names)


# --- lists -------------------------------------------------------------------------------------------


def next_list_id() -> int:
    return int(get_redis().incr(keys.LIST_ID_COUNTER))


def write_list(list_id: int, fields: dict[str, str | int | float]) -> None:
    get_redis().hset(keys.user_list(list_id), mapping=fields)


def get_list(list_id: int) -> dict[str, str]:
    return get_redis().hgetall(keys.user_list(list_id))


def get_lists(list_ids: Sequence[int | str]) -> list[dict[str, str]]:
    """List hashes for ``list_ids``, in order; a deleted list gives ``{}``. One pipelined round trip."""
    if not list_ids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for list_id in list_ids:
            pipe.hgetall(keys.user_list(int(list_id)))
        return pipe.execute()


def rename_list(list_id: int, uid: int, name: str) -> str:
    """Rename a list owned by ``uid``: "renamed", "missing" or "not_owner" (scripts/list_rename.lua)."""
    return str(_script("list_rename")(keys=[keys.user_list(list_id)], args=[uid, name]))


def delete_list_if_owner(list_id: int, uid: int) -> str:
    """Delete a list's hash and timeline if ``uid`` owns it: "deleted", "missing" or "not_owner"."""
    return str(_script("list_delete")(keys=[keys.user_list(list_id), keys.list_timeline(list_id)], args=[uid]))


# --- pub/sub -----------------------------------------------------------------------------------------


def publish(channel: str, message: str) -> int:
    return int(get_redis().publish(channel, message))

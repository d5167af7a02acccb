"""Status hashes and the author's side of a status: ids, writing, reading, deleting (``keys.statuses``).

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis, is_cluster
from timelines import keys, limits
from timelines.store.lua import Call, execute, queue
from timelines.store.lua import script as _script


def next_status_id() -> tuple[int, int]:
    """A new status id and its posted time in microseconds, both strictly increasing (one script)."""
    status_id, micros = _script("next_status_id")(keys=[keys.STATUS_ID_COUNTER])
    return int(status_id), int(micros)


def author_and_next_id(uid: int) -> tuple[dict[str, str], int, int]:
    """``user:{uid}`` (``{}`` when there is none) and, as ``next_status_id``, a new id and its time. One
    pipelined round trip on a single server (an id drawn for a missing author is simply never used)."""
    client = get_redis()
    if is_cluster():
        return client.hgetall(keys.user(uid)), *next_status_id()
    with client.pipeline(transaction=False) as pipe:
        pipe.hgetall(keys.user(uid))
        queue(pipe, client, "next_status_id", [keys.STATUS_ID_COUNTER])
        author, (status_id, micros) = execute(pipe, client, [None, ("next_status_id", [keys.STATUS_ID_COUNTER], [])])
    return author, int(status_id), int(micros)


def write_to_profile(uid: int, status_id: int, fields: dict[str, str | int | float], posted: float) -> int:
    """``write_status`` then ``add_to_profile`` (with home); the latter's result. One pipelined round trip on a
    single server; on a cluster the two keys' nodes in turn."""
    profile_keys = [keys.profile_timeline(uid), keys.home_timeline(uid), keys.user(uid)]
    profile_args = [status_id, repr(posted), limits.HOME_TIMELINE_SIZE, "home"]
    client = get_redis()
    if is_cluster():
        write_status(status_id, fields)
        return int(_script("add_to_profile")(keys=profile_keys, args=profile_args))
    with client.pipeline(transaction=False) as pipe:
        pipe.hset(keys.status(status_id), mapping=fields)
        call: Call = ("add_to_profile", profile_keys, profile_args)
        queue(pipe, client, *call)
        _, added = execute(pipe, client, [None, call])
    return int(added)


def write_status(status_id: int, fields: dict[str, str | int | float]) -> None:
    get_redis().hset(keys.status(status_id), mapping=fields)


def add_to_profile(uid: int, status_id: int, posted: float, *, home: bool = True) -> int:
    """Add a status to its author's profile and, with ``home``, their home (trimmed), and reset ``posts``;
    -1 if no such user."""
    return int(
        _script("add_to_profile")(
            keys=[keys.profile_timeline(uid), keys.home_timeline(uid), keys.user(uid)],
            args=[status_id, repr(posted), limits.HOME_TIMELINE_SIZE, "home" if home else ""],
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


def get_statuses_and_flags(
    status_ids: Sequence[int | str], viewer: int | None, flag_ids: Sequence[int]
) -> tuple[list[dict[str, str]], list[bool], list[bool]]:
    """The hashes of ``status_ids`` and, for ``viewer``, whether they liked and reposted each of ``flag_ids``
    (all False without a viewer). One pipelined round trip."""
    client = get_redis()
    with client.pipeline(transaction=False) as pipe:
        for status_id in status_ids:
            pipe.hgetall(keys.status(status_id))
        asks_flags = viewer is not None and bool(flag_ids)
        if asks_flags:
            members = [str(status_id) for status_id in flag_ids]
            pipe.zmscore(keys.likes_of(viewer), members)
            pipe.hmget(keys.user_reposts(viewer), members)
        replies = pipe.execute() if (status_ids or asks_flags) else []
    hashes = replies[: len(status_ids)]
    if not asks_flags:
        return hashes, [False] * len(flag_ids), [False] * len(flag_ids)
    liked, reposted = replies[len(status_ids)], replies[len(status_ids) + 1]
    return hashes, [score is not None for score in liked], [value is not None for value in reposted]

"""Status hashes and the author's side of a status: ids, writing, reading, deleting (``keys.statuses``).

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

from socialsite.redis_client import get_redis, is_cluster
from timelines import keys, limits
from timelines.store.lua import STALE_MAP_ERRORS, Call, execute, queue, run_many, source
from timelines.store.lua import script as _script
from timelines.store.status_hash import from_stored, holds_judged_fields, names_to_read, picked, to_stored


@dataclass(frozen=True)
class Durability:
    """Wait for ``replicas`` replicas (Redis ``WAIT``, at most ``timeout_ms``) to hold a write before it counts
    as done; ``replicas=0`` does not wait."""

    replicas: int = 0
    timeout_ms: int = 0


NO_WAIT = Durability()


class NotReplicated(RedisTimeoutError):
    """Fewer replicas than asked confirmed a write in time. The write is on the primary (WAIT cannot undo it), but
    must not be acknowledged: a failover now could lose it. A ``TimeoutError``, so pages answer 503."""


def _check_replicated(acked: int, durability: Durability) -> None:
    if acked < durability.replicas:
        raise NotReplicated(
            f"{acked} of {durability.replicas} replicas confirmed the post within {durability.timeout_ms} ms"
        )


def next_status_id(*, durability: Durability | None = None) -> tuple[int, int]:
    """A new status id and its posted time in microseconds, both strictly increasing (one script).

    With ``durability.replicas`` on a cluster, the counter's own primary has that many replicas confirm the new id
    (WAIT on the script's connection) before it is used: an increment lost in a failover would hand the id out
    twice, and the second post would overwrite the first. (On one server the post's own WAIT covers it: a replica
    applies the server's writes in order.)"""
    if durability is None or not durability.replicas or not is_cluster():
        status_id, micros = _script("next_status_id")(keys=[keys.STATUS_ID_COUNTER])
        return int(status_id), int(micros)

    def draw(pipe: Any, server: Any) -> list[str]:
        queue(pipe, server, "next_status_id", [keys.STATUS_ID_COUNTER])
        return ["next_status_id"]

    ((status_id, micros),) = _waiting_on(get_redis(), keys.STATUS_ID_COUNTER, draw, durability)
    return int(status_id), int(micros)


def author_and_next_id(uid: int, *, durability: Durability | None = None) -> tuple[dict[str, str], int, int]:
    """``user:{uid}`` (``{}`` when there is none) and, as ``next_status_id``, a new id and its time. One
    pipelined round trip on a single server (an id drawn for a missing author is simply never used)."""
    client = get_redis()
    if is_cluster():
        return client.hgetall(keys.user(uid)), *next_status_id(durability=durability)
    with client.pipeline(transaction=False) as pipe:
        pipe.hgetall(keys.user(uid))
        queue(pipe, client, "next_status_id", [keys.STATUS_ID_COUNTER])
        author, (status_id, micros) = execute(pipe, client, [None, ("next_status_id", [keys.STATUS_ID_COUNTER], [])])
    return author, int(status_id), int(micros)


def write_to_profile(
    uid: int,
    status_id: int,
    fields: dict[str, str | int | float],
    posted: float,
    *,
    then_read: Sequence[str] = (),
    count: int | None = None,
    larger_than: Mapping[str, int] | None = None,
    durability: Durability = NO_WAIT,
) -> tuple[int, list[list[tuple[str, float]] | int]]:
    """``write_status`` then ``add_to_profile`` (with home): the latter's result, and the first ``count``
    members of each ZSET of ``then_read`` (``graph.members_after``), read after the writes: a new status's
    first targets, so that a follower arriving meanwhile gets it either from its profile or by delivery. A key
    of ``larger_than`` whose ZSET holds more than the size given is answered with its size instead of members.
    One pipelined round trip on a single server; on a cluster the keys' nodes in turn.

    With ``durability.replicas``, the writes are followed by ``WAIT replicas timeout`` on the very connection that
    made them (WAIT counts the writes of its own connection: on Redis 7 a WAIT on another pooled connection could
    return at once), on each server written to: the status's and the author's primary on a cluster; the reads then
    take one more round trip. Raises ``NotReplicated`` when fewer replicas confirmed in time."""
    profile_keys = _profile_keys(uid)
    profile_args = [status_id, repr(posted), limits.HOME_TIMELINE_SIZE, "home", int(holds_judged_fields(fields))]
    count = limits.POSTS_PER_PASS if count is None else count  # read when called: tests and settings may change it
    sizes = larger_than or {}
    reads: list[Call] = [
        ("followers_after", [key], ["-inf", "", count, "", sizes[key]] if key in sizes else ["-inf", "", count])
        for key in then_read
    ]
    client = get_redis()
    if durability.replicas:
        added = _write_waiting(client, status_id, fields, profile_keys, profile_args, durability)
        return added, [_pairs_or_size(flat) for flat in run_many(reads)]
    if is_cluster():
        write_status(status_id, fields)
        added = int(_script("add_to_profile")(keys=profile_keys, args=profile_args))
        return added, [_pairs_or_size(flat) for flat in run_many(reads)]
    with client.pipeline(transaction=False) as pipe:
        pipe.hset(keys.status(status_id), mapping=to_stored(fields))
        calls: list[Call | None] = [None, ("add_to_profile", profile_keys, profile_args), *reads]
        for call in calls[1:]:
            queue(pipe, client, *call)  # type: ignore[misc]
        _, added, *read = execute(pipe, client, calls)
    return int(added), [_pairs_or_size(flat) for flat in read]


def _write_waiting(
    client: Any,
    status_id: int,
    fields: dict[str, str | int | float],
    profile_keys: list[str],
    profile_args: list[Any],
    durability: Durability,
) -> int:
    """The status hash and the author's profile written, each followed by WAIT on the same connection (on a cluster,
    of the primary that owns its slot: one pipeline per primary, one when both share it); ``add_to_profile``'s
    reply. The reads of ``write_to_profile`` follow in a round trip of their own."""
    status_key = keys.status(status_id)

    def status(pipe: Any, server: Any) -> list[str]:
        pipe.hset(status_key, mapping=to_stored(fields))
        return []

    def profile(pipe: Any, server: Any) -> list[str]:
        queue(pipe, server, "add_to_profile", profile_keys, profile_args)
        return ["add_to_profile"]

    def both(pipe: Any, server: Any) -> list[str]:
        return status(pipe, server) + profile(pipe, server)

    if not is_cluster() or client.get_node_from_key(status_key) == client.get_node_from_key(profile_keys[0]):
        return int(_waiting_on(client, status_key, both, durability)[-1])
    _waiting_on(client, status_key, status, durability)
    return int(_waiting_on(client, profile_keys[0], profile, durability)[-1])


def _waiting_on(client: Any, key: str, build: Callable[[Any, Any], list[str]], durability: Durability) -> list[Any]:
    """What ``build`` queues (returning the names of the scripts it queued) then ``WAIT``, in one pipeline on one
    connection of the primary that owns ``key`` (of the one server, off a cluster); the replies before WAIT's.
    Raises ``NotReplicated`` when WAIT counted too few replicas, and the first error of any reply.

    On a cluster the node's pipeline bypasses the cluster client's redirections, so a slot map gone stale (a
    failover since this process's last command there) shows as a connection error, or as MOVED once the old
    primary is back as a replica: a command sent through the cluster client, which follows the redirection or
    refreshes its map, comes first, and the pipeline is sent once more (what
    callers queue is idempotent: HSET of the same fields, ZADD of the same member and score). A server restarted
    empty since a script was loaded answers NOSCRIPT: the script is loaded and the whole pipeline sent again, so that
    its WAIT still follows every write (``lua.execute`` would re-run the script after the WAIT)."""
    for attempt in range(2):
        server = client.get_redis_connection(client.get_node_from_key(key)) if is_cluster() else client
        try:
            for loaded in (False, True):
                with server.pipeline(transaction=False) as pipe:
                    scripts = build(pipe, server)
                    pipe.execute_command("WAIT", durability.replicas, durability.timeout_ms)
                    replies = pipe.execute(raise_on_error=False)
                if loaded or not any(isinstance(reply, NoScriptError) for reply in replies):
                    break
                for name in scripts:
                    server.script_load(source(name))
            for reply in replies:
                if isinstance(reply, Exception):
                    raise reply
        except STALE_MAP_ERRORS:
            if attempt or not is_cluster():
                raise
            client.exists(key)  # through the cluster client, which follows MOVED or refreshes its map on a dead node
            continue
        _check_replicated(int(replies[-1]), durability)
        return replies[:-1]
    raise AssertionError("unreachable")


def _pairs_or_size(reply: Sequence[str] | int) -> list[tuple[str, float]] | int:
    return reply if isinstance(reply, int) else _pairs(reply)


def _pairs(flat: Sequence[str]) -> list[tuple[str, float]]:
    return [(flat[i], float(flat[i + 1])) for i in range(0, len(flat), 2)]


def write_status(status_id: int, fields: dict[str, str | int | float]) -> None:
    """Write a new status hash; ``fields`` as readers know them, stored compactly (``status_hash``)."""
    get_redis().hset(keys.status(status_id), mapping=to_stored(fields))


def set_field_if_exists(status_id: int, name: str, value: str) -> bool:
    """Set one field of status ``status_id`` unless the status is gone (a late write must not bring back a
    deleted status); True if written. One script call (``mark_if_exists``)."""
    stored = to_stored({name: value})
    [(field, raw)] = stored.items()
    return bool(_script("mark_if_exists")(keys=[keys.status(status_id)], args=[field, raw]))


def _profile_keys(uid: int) -> list[str]:
    return [keys.profile_timeline(uid), keys.home_timeline(uid), keys.user(uid), keys.profile_held(uid)]


def add_to_profile(uid: int, status_id: int, posted: float, *, home: bool = True, held: bool = False) -> int:
    """Add a status to its author's profile and, with ``home``, their home (trimmed), and reset ``posts``;
    -1 if no such user. ``held``: the status holds a field of ``status_hash.HELD_FIELDS``."""
    return int(
        _script("add_to_profile")(
            keys=_profile_keys(uid),
            args=[status_id, repr(posted), limits.HOME_TIMELINE_SIZE, "home" if home else "", int(held)],
        )
    )


def get_status(status_id: int) -> dict[str, str]:
    """The status hash as readers know it (``status_hash.from_stored``); ``{}`` when there is none."""
    return from_stored(status_id, get_redis().hgetall(keys.status(status_id)))


def get_statuses(status_ids: Sequence[int | str]) -> list[dict[str, str]]:
    """Status hashes for ``status_ids``, in order; a deleted status gives ``{}``. One pipelined round trip."""
    if not status_ids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for status_id in status_ids:
            pipe.hgetall(keys.status(status_id))  # ints, or digit strings straight from Redis
        found = pipe.execute()
    return [from_stored(status_id, stored) for status_id, stored in zip(status_ids, found, strict=True)]


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


def get_status_fields(status_ids: Sequence[int | str], names: Sequence[str]) -> list[dict[str, str]]:
    """The fields ``names`` of each status that has them (``{}`` where it has none, or is gone), in order. One
    round trip: a script on a single server, a pipeline on a cluster (the hashes span slots)."""
    if not status_ids or not names:
        return [{} for _ in status_ids]
    asked = names_to_read(names)  # either layout (status_hash)
    if not is_cluster():
        # One script answering only for the statuses that hold any of the fields (scripts/status_fields.lua).
        flat = _script("status_fields")(keys=[keys.status(int(status_id)) for status_id in status_ids], args=asked)
        found: list[dict[str, str]] = [{} for _ in status_ids]
        step = 1 + len(asked)
        for start in range(0, len(flat), step):
            found[int(flat[start]) - 1] = picked(names, flat[start + 1 : start + step])
        return found
    with get_redis().pipeline(transaction=False) as pipe:
        for status_id in status_ids:
            pipe.hmget(keys.status(int(status_id)), asked)
        replies = pipe.execute()
    return [picked(names, values) for values in replies]


def delete_status_if_owner(status_id: int, uid: int) -> tuple[str, dict[str, str]]:
    """Delete ``status:{id}`` (and its earlier versions) if ``uid`` wrote it. Returns ("deleted", old fields),
    ("missing", {}) or ("not_owner", {})."""
    reply = _script("delete_status")(keys=[keys.status(status_id), keys.status_versions(status_id)], args=[uid])
    outcome, flat = reply[0], reply[1:]
    return outcome, from_stored(status_id, dict(zip(flat[::2], flat[1::2], strict=True)))


def remove_from_author(uid: int, status_id: int) -> int:
    return int(_script("remove_from_author")(keys=_profile_keys(uid), args=[status_id]))

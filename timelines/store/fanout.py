"""Writes that reach many timelines at once: a fan-out batch and its clean-up (book listing 8.7), each one
script per batch on one server and one per hash slot on a cluster (``lua.run_batch``).

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from redis.cluster import RedisCluster

from socialsite.redis_client import get_redis
from timelines import keys, limits
from timelines.store.lua import Call, execute, per_target, queue, run_batch, run_many


def push_to_home_timelines(uids: Sequence[int | str], status_id: int, posted: float) -> bool:
    """Add one status to the home timelines of ``uids`` and trim each one (book listing 8.7); ZADD and the
    trim are idempotent, so re-running a batch changes nothing. Returns whether the status still exists,
    read after the writes (in the same round trip on one server), so a deletion that raced them is seen.

    On one server, one pipelined round trip of one script per ``POSTS_PER_PASS`` timelines
    (scripts/push_to_homes.lua): a script blocks the server while it runs, and the server serves other
    clients between the scripts of one pipeline, so a job of 10,000 followers never stalls it longer than a
    pass of 1,000 does. On a cluster a script may
    touch one slot only, and a batch of 1,000 followers spans nearly 1,000 slots: there, plain ZADD and
    ZREMRANGEBYRANK are pipelined to each node instead (measured about 5x faster than one script per slot).

    A home the idle sweep dropped (its owner's hash holds ``idle``, ``services.idle``) is not written: on one
    server the script checks the owner's hash beside each home; on a cluster each node is asked first (one more
    pipelined round trip per node), and a drop racing that pass can leave a few entries in a dropped home, which
    the owner's return rebuilds over and ``audit_timelines --fix`` clears."""
    homes = [keys.home_timeline(uid) for uid in uids]
    client = get_redis()
    if not isinstance(client, RedisCluster):
        args = [limits.HOME_TIMELINE_SIZE, repr(posted), status_id]
        pairs = [key for uid, home in zip(uids, homes, strict=True) for key in (keys.user(uid), home)]
        step = 2 * limits.POSTS_PER_PASS
        calls: list[Call | None] = [
            ("push_to_homes", pairs[start : start + step], args) for start in range(0, len(pairs), step)
        ]
        with client.pipeline(transaction=False) as pipe:
            for call in calls:
                queue(pipe, client, *call)  # type: ignore[misc]
            pipe.exists(keys.status(status_id))
            replies = execute(pipe, client, [*calls, None])
        return bool(replies[-1])
    by_node: dict[str, list[tuple[int | str, str]]] = {}
    nodes = {}
    for uid, home in zip(uids, homes, strict=True):
        node = client.get_node_from_key(home)
        nodes[node.name] = node
        by_node.setdefault(node.name, []).append((uid, home))
    for name, node_homes in by_node.items():
        server = client.get_redis_connection(nodes[name])
        with server.pipeline(transaction=False) as pipe:
            for uid, _ in node_homes:
                pipe.hexists(keys.user(uid), keys.IDLE_FIELD)
            idle = pipe.execute()
        with server.pipeline(transaction=False) as pipe:
            for (_, home), dropped in zip(node_homes, idle, strict=True):
                if dropped:
                    continue
                pipe.zadd(home, {str(status_id): posted})
                # Trim on every insert so a burst of posts cannot grow a home without bound (book 8.4).
                pipe.zremrangebyrank(home, 0, -limits.HOME_TIMELINE_SIZE - 1)
            pipe.execute()
    return bool(client.exists(keys.status(status_id)))


def push_to_list_timelines(list_ids: Sequence[int | str], status_id: int, posted: float) -> list[bool]:
    """Add one status to the timelines of ``list_ids`` and trim each, skipping lists deleted meanwhile.
    One pipelined round trip of single-slot scripts; re-running it changes nothing."""
    if not list_ids:
        return []
    calls = [
        (
            "add_to_timeline",
            [keys.user_list(int(list_id)), keys.list_timeline(int(list_id))],
            [limits.HOME_TIMELINE_SIZE, repr(posted), status_id],
        )
        for list_id in list_ids
    ]
    return [int(added) >= 0 for added in run_many(calls)]


def remove_from_timelines(timeline_keys: Sequence[str], status_id: int) -> list[bool]:
    """Remove one status id from many timelines; returns, per timeline, whether it held it. One script
    (scripts/remove_from_timelines.lua); idempotent (ZREM)."""
    results = run_batch("remove_from_timelines", [[key] for key in timeline_keys], [status_id])
    return [bool(flag) for flag in per_target(results, len(timeline_keys))]

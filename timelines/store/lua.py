"""The Lua scripts of the store: files in ``store/scripts/``, registered once per client and run by EVALSHA.

Each script opens with a header of its KEYS, ARGV and return value, and touches the keys of one hash slot
only, except the batch scripts of ``store.fanout`` and ``store.reposts``, which ``run_batch`` sends once per
hash slot on a cluster.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from redis import Redis
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.crc import key_slot
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    NoScriptError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from socialsite.redis_client import get_redis

SCRIPTS_DIR = Path(__file__).resolve().parent / "scripts"

_registered: weakref.WeakKeyDictionary[Redis, dict[str, Script]] = weakref.WeakKeyDictionary()


INCLUDE = "-- include: "

# What a node pipeline meets when the slot map it was routed by is stale (a failover since), and of those, the
# answers that mean the node ran nothing.
REDIRECTIONS = (MovedError, AskError, ClusterDownError, TryAgainError)
STALE_MAP_ERRORS = (RedisConnectionError, RedisTimeoutError, *REDIRECTIONS)


@cache
def source(name: str) -> str:
    """The text of ``scripts/<name>.lua``, with each ``-- include: <library>`` line replaced by that library
    file (Redis has no way for one script to call another)."""
    lines = (SCRIPTS_DIR / f"{name}.lua").read_text().splitlines(keepends=True)
    return "".join(source(line[len(INCLUDE) :].strip()) if line.startswith(INCLUDE) else line for line in lines)


def script(name: str, client: Redis | None = None) -> Script:
    """The registered script ``scripts/<name>.lua`` for ``client`` (EVALSHA, loaded on first miss)."""
    client = client or get_redis()
    per_client = _registered.setdefault(client, {})
    found = per_client.get(name)
    if found is None:
        found = per_client[name] = client.register_script(source(name))
        # Pipelines send a bare EVALSHA (``queue``), which cannot load a missing script: load it now (on a
        # cluster, SCRIPT LOAD goes to every primary).
        client.script_load(source(name))
    return found


def run(name: str, keys: Sequence[str], args: Sequence[Any] = (), client: Redis | None = None) -> Any:
    """Run ``scripts/<name>.lua`` once on ``client`` (a single server): ``script(name)(keys=..., args=...)``
    without redis-py's ``Script.__call__`` around the EVALSHA, which copies every argument into new tuples and
    imports ``Pipeline`` on each call (a page read's hot path). A server restarted since the script was loaded
    answers NOSCRIPT, and the script is loaded and run again."""
    client = client or get_redis()
    found = script(name, client)
    try:
        return client.execute_command("EVALSHA", found.sha, len(keys), *keys, *args)
    except NoScriptError:
        return found(keys=list(keys), args=list(args))


Call = tuple[str, Sequence[str], Sequence[Any]]


def queue(pipe: Any, client: Redis, name: str, keys: Sequence[str], args: Sequence[Any] = ()) -> None:
    """Queue ``scripts/<name>.lua`` on ``pipe`` (a pipeline of ``client``) as a bare EVALSHA. redis-py's own
    script objects make every pipeline ask SCRIPT EXISTS first, one more round trip each time; the script is
    loaded once per client instead (``script``), and ``execute`` re-runs a call that a server restarted since
    no longer knows."""
    pipe.execute_command("EVALSHA", script(name, client).sha, len(keys), *keys, *args)


def execute(pipe: Any, client: Redis, calls: Sequence[Call | None]) -> list[Any]:
    """Execute ``pipe`` whose queued commands were ``calls`` in order (a script call, or None for a plain
    command); a script the server answered NOSCRIPT is loaded and run again on its own. Other errors raise."""
    replies = pipe.execute(raise_on_error=False)
    for index, reply in enumerate(replies):
        if isinstance(reply, NoScriptError) and calls[index] is not None:
            name, keys, args = calls[index]  # type: ignore[misc]
            replies[index] = script(name, client)(keys=list(keys), args=list(args))
        elif isinstance(reply, Exception):
            raise reply
    return replies


def run_many(calls: Sequence[Call], *, again: bool = False) -> list[Any]:
    """Run several single-slot script calls, (name, keys, args) each, in one pipelined round trip per server,
    and return their replies in order.

    On one server that is one pipeline. A cluster client refuses EVALSHA in its pipelines, so on a cluster the
    calls are grouped by the node that owns their slot and sent as one plain pipeline per node (the nodes in
    turn): a round trip per node instead of one per call. Those node pipelines bypass the cluster client's
    redirections: after a failover, a node that answers MOVED has its calls sent again by the refreshed slot map
    (``again``: once); a node gone raises, the map refreshed for the next call.
    """
    if not calls:
        return []
    client = get_redis()
    if not isinstance(client, RedisCluster):
        with client.pipeline(transaction=False) as pipe:
            for name, keys, args in calls:
                queue(pipe, client, name, keys, args)
            return execute(pipe, client, calls)
    by_node: dict[str, list[int]] = {}
    nodes = {}
    for index, (_, keys, _) in enumerate(calls):
        node = client.get_node_from_key(keys[0])
        nodes[node.name] = node
        by_node.setdefault(node.name, []).append(index)
    replies: list[Any] = [None] * len(calls)
    for name_of_node, indexes in by_node.items():
        server = client.get_redis_connection(nodes[name_of_node])
        try:
            with server.pipeline(transaction=False) as pipe:
                for index in indexes:
                    name, keys, args = calls[index]
                    queue(pipe, server, name, keys, args)
                found = execute(pipe, server, [calls[i] for i in indexes])
        except STALE_MAP_ERRORS as error:
            # The slot map is stale (a failover since this process last met the node): a command through the
            # cluster client follows the redirection or refreshes the map. A node that answered MOVED ran none of
            # these calls, so they go again by the new map; after a connection error some may have run: raise.
            with contextlib.suppress(*STALE_MAP_ERRORS):
                client.exists(calls[indexes[0]][1][0])
            if again or not isinstance(error, REDIRECTIONS):
                raise
            found = run_many([calls[i] for i in indexes], again=True)
        for index, reply in zip(indexes, found, strict=True):
            replies[index] = reply
    return replies


def run_batch(name: str, groups: Sequence[Sequence[str]], args: Sequence[Any]) -> list[tuple[list[int], Any]]:
    """Run the batch script ``name`` over ``groups`` of keys (each group: the keys of one target, one slot).

    On one server it is one call with every group's keys. On a cluster a script may only touch one slot, so
    the groups are split by hash slot and the script is sent once per slot (``run_many``: one pipelined round
    trip per node); each call does for its targets exactly what the single call does, as the batch scripts
    treat every target on its own. Returns, per call, the indexes of its groups and the script's reply.
    """
    client = get_redis()
    if not groups:
        return []
    if not isinstance(client, RedisCluster):
        flat = [key for group in groups for key in group]
        return [(list(range(len(groups))), script(name, client)(keys=flat, args=list(args)))]
    by_slot: dict[int, list[int]] = {}
    for index, group in enumerate(groups):
        by_slot.setdefault(key_slot(group[0].encode()), []).append(index)
    calls = [(name, [key for index in indexes for key in groups[index]], args) for indexes in by_slot.values()]
    return list(zip(by_slot.values(), run_many(calls), strict=True))


def per_target(results: list[tuple[list[int], Any]], size: int) -> list[Any]:
    """The per-target replies of a batch script that returns one value per target, in the groups' order."""
    found: list[Any] = [None] * size
    for indexes, reply in results:
        for index, value in zip(indexes, reply, strict=True):
            found[index] = value
    return found

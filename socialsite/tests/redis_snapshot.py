"""A copy of everything in the test session's Redis, taken once and put back before each test that needs it.

Some tests need a large world built through the services (1,500 followers made by ``create_user`` and
``follow_user``): built once per module, saved with DUMP, and put back with RESTORE after the per-test flush
(``conftest.redis_db``), each test starts from exactly the keys, values and time-outs the services wrote, without
paying for the services' round trips again. On a cluster each primary's keys go back to that primary (the slots
do not move during a module); the job Redis, apart from the social data there, is copied too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import redis

from socialsite import redis_client

BATCH = 500  # keys per pipeline


@dataclass
class Snapshot:
    # One list per server, in the order of ``_servers()``: (key, PTTL, DUMP's payload) for each of its keys (redis-py
    # never decodes DUMP's reply, even on a client that decodes the others).
    servers: list[list[tuple[str | bytes, int, bytes]]] = field(default_factory=list)


def _servers() -> list[redis.Redis]:
    servers = list(redis_client.primaries())
    if redis_client.is_cluster():
        servers.append(redis_client.get_job_redis())
    return servers


def flush() -> None:
    """Empty every server the tests use: the social data's (each primary of a cluster) and the jobs'."""
    for server in redis_client.primaries():
        server.flushall()
    redis_client.get_job_redis().flushall()


def take() -> Snapshot:
    """Every key of every server, as it stands now."""
    snapshot = Snapshot()
    for server in _servers():
        entries: list[tuple[str | bytes, int, bytes]] = []
        names = list(server.scan_iter(count=1000))
        for start in range(0, len(names), BATCH):
            chunk = names[start : start + BATCH]
            pipe = server.pipeline(transaction=False)
            for name in chunk:
                pipe.pttl(name)
                pipe.dump(name)
            replies = pipe.execute()
            for index, name in enumerate(chunk):
                ttl, payload = replies[2 * index], replies[2 * index + 1]
                if payload is not None:  # expired meanwhile
                    entries.append((name, max(ttl, 0), payload))
        snapshot.servers.append(entries)
    return snapshot


def restore(snapshot: Snapshot) -> None:
    """Put the snapshot's keys back (over whatever is there: call it after a flush)."""
    servers = _servers()
    assert len(servers) == len(snapshot.servers), "the Redis servers changed since the snapshot"
    for server, entries in zip(servers, snapshot.servers, strict=True):
        for start in range(0, len(entries), BATCH):
            pipe = server.pipeline(transaction=False)
            for name, ttl, payload in entries[start : start + BATCH]:
                pipe.restore(name, ttl, payload, replace=True)
            pipe.execute()

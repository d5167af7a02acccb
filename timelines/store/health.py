"""What each Redis server holding social data says about itself, for the admin dashboard: memory in use and
the number of keys, per primary of a cluster or for the one server.

See ``timelines.store`` for the rules every store module follows. ``INFO memory`` and ``DBSIZE`` are O(1) on
the server; nothing here scans the keyspace.
"""

from __future__ import annotations

from socialsite.redis_client import primaries


def servers() -> list[tuple[str, int, int]]:
    """(address, used memory in bytes, keys) of every primary. One pipelined round trip per server."""
    found = []
    for client in primaries():
        with client.pipeline(transaction=False) as pipe:
            pipe.info("memory")
            pipe.dbsize()
            memory, size = pipe.execute()
        kwargs = client.connection_pool.connection_kwargs
        address = kwargs.get("path") or f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')}"
        found.append((str(address), int(memory.get("used_memory", 0)), int(size)))
    return found

"""The Lua scripts of the store: files in ``store/scripts/``, registered once per client and run by EVALSHA.

Each script opens with a header of its KEYS, ARGV and return value, and touches the keys of one hash slot
only, except the two batch scripts of ``store.fanout``, which are sent once per slot on a cluster.
"""

from __future__ import annotations

import weakref
from functools import cache
from pathlib import Path

from redis import Redis
from redis.commands.core import Script

from socialsite.redis_client import get_redis

SCRIPTS_DIR = Path(__file__).resolve().parent / "scripts"

_registered: weakref.WeakKeyDictionary[Redis, dict[str, Script]] = weakref.WeakKeyDictionary()


@cache
def source(name: str) -> str:
    return (SCRIPTS_DIR / f"{name}.lua").read_text()


def script(name: str, client: Redis | None = None) -> Script:
    """The registered script ``scripts/<name>.lua`` for ``client`` (EVALSHA, loaded on first miss)."""
    client = client or get_redis()
    per_client = _registered.setdefault(client, {})
    found = per_client.get(name)
    if found is None:
        found = per_client[name] = client.register_script(source(name))
    return found

"""How many streams each client (``identifier``) holds open, across every server process: at most
``settings.STREAMING_MAX_CONNECTIONS`` (Twitter's connection limit; a third stream is refused with 420).

Each open stream has an entry in a sorted set per identifier (``streaming:open:{<digest>}``, the digest of the
identifier so any text makes one hash slot), scored by when it expires. A stream renews its entry every
``HEARTBEAT_SECONDS`` and removes it when it ends, so a process that dies leaves entries that expire within
``EXPIRY_SECONDS``. Taking a place is one Lua step (drop expired entries, count, add), so racing connections
cannot both take the last place. The only code of the streaming app that sends Redis commands; asyncio, so
nothing blocks the event loop.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from functools import cache
from pathlib import Path

from django.conf import settings

from socialsite.redis_client import get_async_redis

HEARTBEAT_SECONDS = 30.0
EXPIRY_SECONDS = 90.0

_SCRIPT = Path(__file__).resolve().parent / "scripts" / "take_stream_place.lua"


def key(identifier: str) -> str:
    digest = hashlib.sha256(identifier.encode()).hexdigest()[:32]
    return f"streaming:open:{{{digest}}}"


@cache
def _source() -> str:
    return _SCRIPT.read_text()


async def take_place(identifier: str) -> str | None:
    """Take one of the identifier's places; returns the place's id, or None when they are all taken."""
    place = uuid.uuid4().hex
    client = get_async_redis()
    now = time.time()
    taken = await client.eval(
        _source(), 1, key(identifier), now, now + EXPIRY_SECONDS, place, settings.STREAMING_MAX_CONNECTIONS
    )
    return place if int(taken) else None


async def renew(identifier: str, place: str) -> None:
    """Keep a place taken for another ``EXPIRY_SECONDS``."""
    await get_async_redis().zadd(key(identifier), {place: time.time() + EXPIRY_SECONDS}, xx=True)


async def release(identifier: str, place: str) -> None:
    await get_async_redis().zrem(key(identifier), place)

"""How many streams each client holds open, across every server process: per ``identifier``, at most
``settings.STREAMING_MAX_CONNECTIONS`` API streams (Twitter's connection limit; a third stream is refused with
420); per client address, at most ``settings.STREAMING_MAX_CONNECTIONS_PER_ADDRESS`` API streams and live pages
together (``streaming.places`` takes both).

Each open stream has an entry in a sorted set per identifier (``streaming:open:{<digest>}``, the digest of the
identifier so any text makes one hash slot) and per address (``streaming:open:address:{<digest>}``), scored by
when it expires. A stream renews its entries every ``HEARTBEAT_SECONDS`` and removes them when it ends, so a
process that dies leaves entries that expire within ``EXPIRY_SECONDS``. Taking a place is one Lua step (drop
expired entries, count, add), so racing connections cannot both take the last place. The only code of the
streaming app that sends Redis commands; asyncio, so nothing blocks the event loop (``count_open``, read by the
admin dashboard's sync view, excepted).

    redis-cli ZRANGE streaming:open:address:{9f86d081884c7d659a2feaa0c55ad015} 0 -1 WITHSCORES

Every place is also in one sorted set of all open streams (``streaming:open:all``, scored by expiry alike), so
the admin dashboard counts the streams open on every server with one ZCOUNT instead of scanning keys. It sits
in its own hash slot, so it is written by a second command, not inside the script.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from functools import cache
from pathlib import Path

from django.conf import settings

from socialsite.redis_client import get_async_redis, get_redis

HEARTBEAT_SECONDS = 30.0
EXPIRY_SECONDS = 90.0

ALL_OPEN = "streaming:open:all"

_SCRIPT = Path(__file__).resolve().parent / "scripts" / "take_stream_place.lua"


def key(identifier: str) -> str:
    digest = hashlib.sha256(identifier.encode()).hexdigest()[:32]
    return f"streaming:open:{{{digest}}}"


def address_key(address: str) -> str:
    digest = hashlib.sha256(address.encode()).hexdigest()[:32]
    return f"streaming:open:address:{{{digest}}}"


def _member(identifier: str, place: str) -> str:
    """A place's member of ``ALL_OPEN``: places are only unique per identifier's set."""
    return f"{key(identifier)}:{place}"


@cache
def _source() -> str:
    return _SCRIPT.read_text()


async def _take(set_key: str, limit: int, place: str, now: float) -> bool:
    taken = await get_async_redis().eval(_source(), 1, set_key, now, now + EXPIRY_SECONDS, place, limit)
    return bool(int(taken))


async def take_address_place(address: str, *, limit: int) -> str | None:
    """Take one of the client address's ``limit`` places; returns the place's id, or None when they are all
    taken. Not counted in ``ALL_OPEN``: a live page is not an API stream, and an API stream is counted there by
    its identifier's place."""
    place = uuid.uuid4().hex
    return place if await _take(address_key(address), limit, place, time.time()) else None


async def renew_address(address: str, place: str) -> None:
    """Keep an address's place taken for another ``EXPIRY_SECONDS``."""
    await get_async_redis().zadd(address_key(address), {place: time.time() + EXPIRY_SECONDS}, xx=True)


async def release_address(address: str, place: str) -> None:
    await get_async_redis().zrem(address_key(address), place)


async def take_place(identifier: str) -> str | None:
    """Take one of the identifier's places; returns the place's id, or None when they are all taken."""
    place = uuid.uuid4().hex
    client = get_async_redis()
    now = time.time()
    if not await _take(key(identifier), settings.STREAMING_MAX_CONNECTIONS, place, now):
        return None
    async with client.pipeline(transaction=False) as pipe:
        # Entries of processes that died expire here as in the identifier's set.
        pipe.zremrangebyscore(ALL_OPEN, "-inf", now)
        pipe.zadd(ALL_OPEN, {_member(identifier, place): now + EXPIRY_SECONDS})
        await pipe.execute()
    return place


async def renew(identifier: str, place: str) -> None:
    """Keep a place taken for another ``EXPIRY_SECONDS``."""
    expires = time.time() + EXPIRY_SECONDS
    async with get_async_redis().pipeline(transaction=False) as pipe:
        pipe.zadd(key(identifier), {place: expires}, xx=True)
        pipe.zadd(ALL_OPEN, {_member(identifier, place): expires}, xx=True)
        await pipe.execute()


async def release(identifier: str, place: str) -> None:
    async with get_async_redis().pipeline(transaction=False) as pipe:
        pipe.zrem(key(identifier), place)
        pipe.zrem(ALL_OPEN, _member(identifier, place))
        await pipe.execute()


def count_open() -> int:
    """How many API streams are open on every server, places that were not renewed in time left out (one
    ZCOUNT; synchronous, for the admin dashboard)."""
    return int(get_redis().zcount(ALL_OPEN, f"({time.time()!r}", "+inf"))

"""The stream hub's Redis side: its one subscriber connection, the handshake, the keep-alive and the reconnection.

``read(hub)`` is the hub's reader task (``streaming.hub`` starts it with the first subscription and cancels it with
the last): it subscribes to the hub's channel, loads the policy's public state, hands every event read to
``hub.dispatch_one`` (up to ``MAX_BURST`` already read, then ``hub.flush``), checks an idle connection with PING,
and when the connection dies or stops answering, reconnects with a short backoff (on a cluster, to the next node
named) and tells the hub to ``resync`` its subscriptions.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from redis.exceptions import RedisError

from socialsite.redis_client import get_async_redis
from timelines import policy

logger = logging.getLogger(__name__)

RECONNECT_MIN_SECONDS = 0.1
RECONNECT_MAX_SECONDS = 2.0
# How often an idle subscriber connection is checked with PING, and how long its answer may take: the connection
# has no read timeout (it may rightly stay idle for hours), so a server that stopped answering (paused, wedged,
# or gone without a reset) would otherwise hold the hub, and every stream of the process, silent for good.
PING_INTERVAL_SECONDS = 10.0
PONG_TIMEOUT_SECONDS = 5.0
# Connecting, SUBSCRIBE and the policy's public state, for the same reason.
HANDSHAKE_TIMEOUT_SECONDS = 5.0
READ_TIMEOUT_SECONDS = 1.0

# Events dispatched in one pass before the sinks' bytes are written and the writers get the loop; well under
# any stream's queue size, so clients served through their queues still drain them between passes.
MAX_BURST = 16


async def _subscribed(pubsub: Any) -> list[Any]:
    """Read the subscriber connection up to the answer to the PING sent after its SUBSCRIBE, and return the events
    read on the way. Redis answers a connection's commands in order, so once the PONG is read the subscription is
    in place and every event published from then on reaches the hub. Without this wait, ``connected`` could be set
    while the SUBSCRIBE still waited to be read by the server (on a cluster the handshake's other reads go to other
    nodes), and events published at once were lost. Bounded by its own clock: redis-py's read timeouts can swallow
    an outer ``asyncio.timeout``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + HANDSHAKE_TIMEOUT_SECONDS
    early: list[Any] = []
    while loop.time() < deadline:
        message = await pubsub.get_message(timeout=min(READ_TIMEOUT_SECONDS, max(0.0, deadline - loop.time())))
        if message is None:
            continue
        if message.get("type") == "pong":
            return early
        if message.get("type") == "message":
            early.append(message["data"])
    raise TimeoutError(f"no answer to PING after SUBSCRIBE in {HANDSHAKE_TIMEOUT_SECONDS:.0f}s")


async def read(hub: Any) -> None:
    """Read ``hub.channel`` and dispatch to ``hub`` until cancelled, or until this task is no longer the hub's reader.

    The second check is needed because a cancellation can be lost: when ``remove`` cancels this task while
    a read's own timeout (redis-py's ``asyncio.timeout`` inside ``get_message``) expires at the same
    moment, redis-py turns the pair into a timeout and returns None. Left running, the old reader would
    dispatch every event a second time beside the reader the next ``subscribe`` starts."""
    delay = RECONNECT_MIN_SECONDS
    lost = False  # a connection was lost since this reader started: events may have been missed
    attempt = 0  # on a cluster, each reconnection tries the next node named (a failed-over primary stays dead)
    while True:
        client = pubsub = None
        try:
            # The client is only built here (no I/O, never starts a server); asyncio.timeout raises TimeoutError,
            # an OSError, so a server that accepts but does not answer counts as lost, like one that refuses.
            client = get_async_redis(subscriber=True, attempt=attempt)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            async with asyncio.timeout(HANDSHAKE_TIMEOUT_SECONDS):
                await pubsub.subscribe(hub.channel)
                await pubsub.ping()
                hub.public_state = await policy.get_policy().aload(recipients=(policy.PUBLIC,), authors=())
                hub.withheld.clear()  # the state just read knows every suspension and limit
            early = await _subscribed(pubsub)
            if not hub.is_reader():
                return
            hub.connected.set()
            if lost:
                hub.resync()
                lost = False
            if early:
                for data in early:
                    hub.dispatch_one(data)
                hub.flush()
            delay = RECONNECT_MIN_SECONDS
            idle = 0.0
            pinged: float | None = None  # when the unanswered PING was sent
            while True:
                message = await pubsub.get_message(timeout=READ_TIMEOUT_SECONDS)
                if not hub.is_reader():
                    return  # replaced or stopped (see the docstring)
                if message is None:
                    idle += READ_TIMEOUT_SECONDS
                    if pinged is not None and idle >= PONG_TIMEOUT_SECONDS:
                        raise TimeoutError(f"no answer to PING in {PONG_TIMEOUT_SECONDS:.0f}s")
                    if pinged is None and idle >= PING_INTERVAL_SECONDS:
                        async with asyncio.timeout(PONG_TIMEOUT_SECONDS):
                            await pubsub.ping()
                        pinged, idle = asyncio.get_running_loop().time(), 0.0
                    continue
                # Anything read, the PONG or an event, shows the connection is alive.
                idle, pinged = 0.0, None
                if message.get("type") == "message":
                    try:
                        hub.dispatch_one(message["data"])
                        # Events already read from Redis, dispatched in the same pass (see MAX_BURST).
                        for _ in range(MAX_BURST - 1):
                            message = await pubsub.get_message(timeout=0)
                            if message is None or not hub.is_reader():
                                break
                            if message.get("type") == "message":
                                hub.dispatch_one(message["data"])
                    finally:
                        hub.flush()
                    # get_message does not suspend while the connection's read buffer still holds messages
                    # (64 KiB is a burst of ~150 posts), and daphne's send never suspends either: without
                    # this, a burst would fill every queue before any writer ran, and cut off clients that
                    # read perfectly well. Yielding lets the writers these events woke take them first.
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except (RedisError, OSError) as error:
            lost = True
            hub.connected.clear()
            hub.stats.reconnects += 1
            attempt += 1
            logger.warning("Stream subscriber lost Redis (%s); reconnecting in %.1fs.", error, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX_SECONDS)
        except Exception:
            # A bug must not silently end every stream of this process: log it and start over.
            lost = True
            hub.connected.clear()
            hub.stats.reconnects += 1
            logger.exception("Stream subscriber failed; restarting it in %.1fs.", delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX_SECONDS)
        finally:
            if pubsub is not None:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.aclose()

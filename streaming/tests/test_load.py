"""The streaming server under load and failure: many clients, a client that stops reading, clients that leave,
and a Redis subscriber connection that is killed. All against a real daphne and real sockets."""

from __future__ import annotations

import asyncio
import socket
import struct
import time

from socialsite import redis_client
from socialsite.redis_client import get_redis
from socialsite.testing import WAIT_SECONDS
from streaming.client import open_stream
from streaming.loadclient import Listener, close_all, open_listeners, wait_until
from timelines import keys, services

LONG = "x" * 250


async def post(uid: int, message: str) -> int:
    return await asyncio.to_thread(services.post_status, uid=uid, message=message)


def numsub() -> int:
    return get_redis().pubsub_numsub(keys.STREAM_CHANNEL)[0][1]


def test_200_concurrent_clients_all_receive_a_burst_over_one_redis_subscription(server):
    alice = services.create_user(login="alice", name="Alice")

    async def scenario():
        listeners = await open_listeners(200, url=server.url, identifier=lambda i: f"crowd-{i}")
        try:
            assert server.hub()["subscriptions"] == 200
            assert numsub() == 1  # one subscription for the whole process, not one per client
            started = time.monotonic()
            posted = [await post(alice, f"burst {i} {LONG}") for i in range(25)]
            everyone = await wait_until(lambda: all(len(x.received) >= 25 for x in listeners), timeout=WAIT_SECONDS)
            elapsed = time.monotonic() - started
            assert everyone, sorted(len(x.received) for x in listeners)[:5]
            assert all(listener.status_ids() == posted for listener in listeners)
            assert server.hub()["cut_off"] == 0
            print(f"200 clients x 25 posts delivered in {elapsed:.2f}s")
        finally:
            await close_all(listeners)

    asyncio.run(scenario())


def test_a_client_that_stops_reading_is_cut_off_while_the_others_keep_up(server):
    alice = services.create_user(login="alice", name="Alice")

    async def scenario():
        cut_before = server.hub()["cut_off"]
        # A small receive window, and this client never reads until the end of the test.
        stalled = await open_stream(
            "sample", identifier="stalled", params={"percent": "100"}, url=server.url, receive_buffer=4096
        )
        readers = await open_listeners(3, url=server.url, identifier=lambda i: f"reader-{i}")
        try:
            posted: list[int] = []
            for i in range(3000):
                posted.append(await post(alice, f"{i} {LONG}"))
                if i % 25 == 24 and server.hub()["cut_off"] > cut_before:
                    break
            state = server.hub()
            assert state["cut_off"] == cut_before + 1, f"never cut off after {len(posted)} posts"
            assert state["subscriptions"] == 3  # the stalled client's subscription is gone, the readers' remain
            more = [await post(alice, f"after the cut {i}") for i in range(5)]
            assert await wait_until(
                lambda: all(len(r.received) == len(posted) + 5 for r in readers), timeout=WAIT_SECONDS
            )
            assert all(r.status_ids() == posted + more for r in readers)
            assert not any(r.ended for r in readers)

            # The stalled client now reads: what it was sent, then the notice, then the end of the stream.
            lines = []
            async with asyncio.timeout(WAIT_SECONDS):
                async for line in stalled.lines():
                    if line:
                        lines.append(line)
            assert lines[-1] == b'{"disconnect":{"reason":"falling behind"}}'
            delivered = len(lines) - 1
            # Far less than was posted reached its socket: the server did not buffer the backlog for it.
            assert delivered < len(posted) - 50
            print(f"cut off after {len(posted)} posts; it had been sent {delivered}")
        finally:
            await stalled.aclose()
            await close_all(readers)

    asyncio.run(scenario())


def test_disconnecting_clients_leave_no_subscription_task_or_redis_subscriber(server):
    async def scenario():
        baseline = server.wait_for_hub(subscriptions=0, streams=0, reading=False)["tasks"]
        listeners = await open_listeners(20, url=server.url)
        abrupt = await Listener.open("filter", identifier="abrupt", params={"track": "x"}, url=server.url)
        state = server.hub()
        assert (state["subscriptions"], state["streams"]) == (21, 21)
        assert numsub() == 1

        # A reset instead of a clean close (SO_LINGER 0) must be noticed just as well.
        sock = abrupt.response.writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        started = time.monotonic()
        await close_all([*listeners, abrupt])
        await asyncio.to_thread(server.wait_for_hub, subscriptions=0, streams=0, reading=False)
        freed_in = time.monotonic() - started
        # Cancelled tasks finish their clean-up (closing the Redis connection) a moment later.
        await asyncio.to_thread(server.wait_for_hub, tasks=baseline)
        assert await wait_until(lambda: numsub() == 0, timeout=WAIT_SECONDS)
        print(f"21 disconnects freed in {freed_in:.3f}s")

    asyncio.run(scenario())


def test_streams_carry_on_after_the_redis_subscriber_connection_is_killed(server):
    alice = services.create_user(login="alice", name="Alice")

    async def scenario():
        listener = await Listener.open("sample", identifier="survivor", params={"percent": "100"}, url=server.url)
        before = server.hub()["reconnects"]
        first = await post(alice, "before the kill")
        assert await wait_until(lambda: len(listener.received) == 1, WAIT_SECONDS)

        assert sum(server.client_kill_filter(_type="pubsub") for server in redis_client.primaries()) == 1
        killed = time.monotonic()
        try:

            def resubscribed() -> bool:
                state = server.hub()
                return state["reconnects"] > before and state["connected"] and numsub() == 1

            assert await wait_until(resubscribed, timeout=WAIT_SECONDS)
            resumed_in = time.monotonic() - killed
            second = await post(alice, "after the kill")
            assert await wait_until(lambda: len(listener.received) == 2, WAIT_SECONDS)
            assert listener.status_ids() == [first, second] and not listener.ended
            print(f"resubscribed {resumed_in:.2f}s after the kill")
        finally:
            await listener.close()

    asyncio.run(scenario())

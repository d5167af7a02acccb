"""Flow control on the streaming WebSocket (issue 20): a client that subscribes and stops reading is closed (1013)
once its bounded queue fills, its streams leave the hub, and the server's memory stays bounded however much more is
posted; on a daphne with the streaming tests' small limits (a 50-message queue, a 32 KiB send buffer)."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator

import pytest
import websocket

from api.tests.helpers import person, token_for
from socialsite import testing
from streaming.tests.conftest import StreamServer, server_on_test_database
from streaming.tests.test_live_server import rss_kib
from timelines import services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def site(django_db_setup: None) -> Iterator[StreamServer]:
    with server_on_test_database("websocket-flow") as server:
        yield server


def test_a_websocket_that_stops_reading_is_closed_and_memory_stays_bounded(site):
    author = person("loud")
    person("idle")
    token = token_for("idle")
    baseline = site.hub()["subscriptions"]
    client = websocket.create_connection(
        site.url.replace("http://", "ws://") + "/api/v1/streaming",
        header=[f"Authorization: Bearer {token}"],
        sockopt=[(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)],
        timeout=testing.WAIT_SECONDS,
    )
    try:
        client.send(json.dumps({"type": "subscribe", "stream": "public"}))
        assert testing.wait_until(lambda: site.hub()["subscriptions"] > baseline), "the stream never subscribed"
        before = rss_kib(site.process.pid)
        posted = 0
        # It never reads: the server must give up on it, not buffer for it.
        while site.hub()["subscriptions"] > baseline and posted < 3000:
            for _ in range(25):
                services.post_status(uid=int(author.uid), message="x" * 250)
                posted += 1
        assert site.hub()["subscriptions"] == baseline, f"never cut off after {posted} posts"

        async def more_posts() -> None:
            for _ in range(300):
                await asyncio.to_thread(services.post_status, uid=int(author.uid), message="y" * 250)

        # It reads now: what was already on its way, then the close (or, past the grace, a reset).
        received, code = 0, None
        started = time.monotonic()
        asyncio.run(more_posts())
        grown = rss_kib(site.process.pid) - before
        while time.monotonic() - started < testing.WAIT_SECONDS:
            try:
                opcode, data = client.recv_data(control_frame=True)
            except (websocket.WebSocketConnectionClosedException, ConnectionError, OSError):
                break
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                code = int.from_bytes(data[:2], "big") if len(data) >= 2 else None
                break
            if opcode == websocket.ABNF.OPCODE_TEXT:
                received += 1
        assert received < posted - 30, f"the backlog was buffered for it: {received} of {posted}"
        assert code in (1013, None), code
        assert grown < 8 * 1024, f"daphne grew by {grown} KiB"
        print(f"cut off after {posted} posts, {received} received; daphne grew {grown} KiB; close code {code}")
    finally:
        client.close()

"""The API streams open on every server, as the admin dashboard counts them (``connections.count_open``):
each open stream once, whatever its identifier, and a closed one no more."""

from __future__ import annotations

import asyncio
import time

from socialsite.testing import WAIT_SECONDS
from streaming import connections
from streaming.client import open_stream


def wait_for_count(expected: int, timeout: float = WAIT_SECONDS) -> int:
    deadline = time.monotonic() + timeout
    while (found := connections.count_open()) != expected and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def test_open_streams_are_counted_until_they_close(server):
    async def scenario():
        assert connections.count_open() == 0
        first = await open_stream("sample", identifier="app-a", params={"percent": "1"}, url=server.url)
        second = await open_stream("sample", identifier="app-a", params={"percent": "1"}, url=server.url)
        other = await open_stream("filter", identifier="app-b", params={"track": "tea"}, url=server.url)
        assert await asyncio.to_thread(wait_for_count, 3) == 3
        await first.aclose()
        assert await asyncio.to_thread(wait_for_count, 2) == 2
        for response in (second, other):
            await response.aclose()
        assert await asyncio.to_thread(wait_for_count, 0) == 0

    asyncio.run(scenario())

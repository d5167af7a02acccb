"""Streaming clients that stay connected through the chaos: each holds ``/statuses/sample.json?percent=100`` (the
firehose of public posts) open and, when the stream ends (its web process was killed) or cannot be opened,
connects again after a short growing delay, as a well-behaved streaming client does. They run on one asyncio loop
in a thread of their own; every status id each client received is kept, with when."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import Counter

from streaming.client import StreamError, open_stream

OPEN_TIMEOUT_SECONDS = 15.0
RETRY_MIN_SECONDS = 0.1
RETRY_MAX_SECONDS = 2.0


class StreamClients:
    def __init__(self, base: str, count: int) -> None:
        self.base = base
        self.count = count
        self.connections = [0] * count  # streams opened, per client
        self.seen: list[dict[int, float]] = [{} for _ in range(count)]
        self.errors: Counter[str] = Counter()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._tasks: list[asyncio.Future[None]] = []

    @property
    def reconnects(self) -> int:
        """Streams opened again after the first: each one a client that lost its stream and came back."""
        return sum(max(0, opened - 1) for opened in self.connections)

    def start(self) -> None:
        self._thread.start()
        self._tasks = [asyncio.run_coroutine_threadsafe(self._client(i), self._loop) for i in range(self.count)]

    def connected(self) -> int:
        return sum(1 for opened in self.connections if opened)

    def received(self, status_id: int) -> int:
        """How many clients received ``status_id``."""
        return sum(1 for seen in self.seen if status_id in seen)

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(asyncio.sleep(0.1), self._loop).result(timeout=5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    async def _client(self, index: int) -> None:
        delay = RETRY_MIN_SECONDS
        while True:
            try:
                response = await open_stream(
                    "sample",
                    identifier=f"chaos-{index}",
                    params={"percent": "100"},
                    url=self.base,
                    timeout=OPEN_TIMEOUT_SECONDS,
                )
            except StreamError as error:
                self.errors[f"stream refused (HTTP {error.status})"] += 1
            except (TimeoutError, OSError, asyncio.IncompleteReadError):
                self.errors["stream could not connect"] += 1
            else:
                self.connections[index] += 1
                delay = RETRY_MIN_SECONDS
                try:
                    async for message in response.messages():
                        if message and "id" in message and not message.get("deleted"):
                            self.seen[index][int(message["id"])] = time.monotonic()
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    pass
                finally:
                    await response.aclose()
                self.errors["stream ended"] += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX_SECONDS)

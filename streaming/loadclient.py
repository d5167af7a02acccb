"""Many concurrent streaming clients in one process, for tests and benchmarks.

``open_listeners`` opens N streams (sample or filter) against a running server and keeps reading each one in
its own task, recording every message with the time it arrived; ``latencies`` turns those into delivery
latencies (arrival time minus the status's ``posted`` time, both wall clock on the same machine). The
streaming tests use it for their 200-client burst (the benchmark reads its clients with ``streaming.recorder``
instead, in a process of its own); by hand:

    python -m streaming.loadclient --url http://127.0.0.1:8000 --clients 1000 --seconds 30

(the site must be running; post statuses meanwhile, e.g. with ``manage.py seed_demo``). Opening more
sockets than the process's file limit allows fails, so the soft limit is raised to the hard one first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from streaming.client import DEFAULT_URL, StreamResponse, open_stream


@dataclass
class Listener:
    """One streaming client: what it received, and when."""

    response: StreamResponse
    received: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    keepalives: int = 0
    ended: bool = False
    task: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, kind: str, **options: Any) -> Listener:
        """Open one stream (``client.open_stream`` options) and start reading it in the background."""
        listener = cls(await open_stream(kind, **options))
        listener.task = asyncio.ensure_future(listener._read())
        return listener

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [message for _, message in self.received]

    def status_ids(self) -> list[int]:
        return [m["id"] for m in self.messages if "id" in m and not m.get("deleted")]

    async def _read(self) -> None:
        try:
            async for message in self.response.messages():
                if message is None:
                    self.keepalives += 1
                else:
                    self.received.append((time.time(), message))
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            pass
        finally:
            self.ended = True

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.response.aclose()


def raise_file_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return soft


async def open_listeners(
    count: int,
    *,
    url: str = DEFAULT_URL,
    kind: str = "sample",
    params: Mapping[str, str] | None = None,
    identifier: Callable[[int], str] = lambda i: f"load-{i}",
    concurrency: int = 50,
) -> list[Listener]:
    """Open ``count`` streams (at most ``concurrency`` handshakes at a time) and start reading them all."""
    raise_file_limit()
    gate = asyncio.Semaphore(concurrency)
    if params is None:
        params = {"percent": "100"} if kind == "sample" else {}

    async def one(i: int) -> Listener:
        async with gate:
            return await Listener.open(kind, identifier=identifier(i), params=params, url=url)

    results = await asyncio.gather(*(one(i) for i in range(count)), return_exceptions=True)
    listeners = [result for result in results if isinstance(result, Listener)]
    errors = [result for result in results if isinstance(result, BaseException)]
    if errors:
        await close_all(listeners)
        raise errors[0]
    return listeners


async def close_all(listeners: list[Listener]) -> None:
    await asyncio.gather(*(listener.close() for listener in listeners), return_exceptions=True)


async def wait_until(predicate: Callable[[], bool], timeout: float, interval: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(interval)
    return True


def latencies(listeners: list[Listener]) -> list[float]:
    """Delivery latency in seconds of every status every listener received."""
    return [
        arrived - float(message["posted"])
        for listener in listeners
        for arrived, message in listener.received
        if "posted" in message and not message.get("deleted")
    ]


def summary(listeners: list[Listener], seconds: float) -> dict[str, Any]:
    values = sorted(latencies(listeners))
    result: dict[str, Any] = {"clients": len(listeners), "delivered": len(values), "seconds": round(seconds, 3)}
    if values:
        result["per_second"] = round(len(values) / seconds, 1) if seconds else None
        result["p50_ms"] = round(statistics.median(values) * 1000, 2)
        result["p99_ms"] = round(values[min(len(values) - 1, int(len(values) * 0.99))] * 1000, 2)
    return result


async def _main(arguments: argparse.Namespace) -> None:
    listeners = await open_listeners(
        arguments.clients, url=arguments.url, kind="sample", params={"percent": str(arguments.percent)}
    )
    started = time.monotonic()
    try:
        await asyncio.sleep(arguments.seconds)
    finally:
        await close_all(listeners)
    print(json.dumps(summary(listeners, time.monotonic() - started)))


def main() -> None:
    parser = argparse.ArgumentParser(description="Open many sample streams and report delivery latency.")
    parser.add_argument("--url", default=DEFAULT_URL)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--percent", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()

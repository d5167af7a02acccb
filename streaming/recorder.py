"""Many streaming clients in a process of their own, recording when each status reaches each of them.

The benchmark (``bench/scenarios/streaming.py``) measures delivery to 1,000 clients. Read in the process that
posts, those clients would take the poster's interpreter and much of a core from the server they measure; here
they run in a child process with the cheapest readers asyncio offers (a ``Protocol`` per connection, no
``StreamReader``, no task per client), so the figures are the server's, not the load generator's.

    python -m streaming.recorder --kind sample --url http://127.0.0.1:8000 --clients 1000
    python -m streaming.recorder --kind live --url http://127.0.0.1:8000 --clients 1000 --cookie 'sessionid=...'
    python -m streaming.recorder --kind redis --redis-url unix:///path/redis.sock --clients 1000
    python -m streaming.recorder --kind mastodon-ws --url http://127.0.0.1:8000 --clients 1000 --token ...

Kinds: ``sample`` (``GET /statuses/sample.json?percent=100``, one JSON line per status), ``live`` (the live
home, ``/live/home``: server-sent events, ``id: <entry id>``; ``--cookie`` may be given once per client and is
used round robin), ``redis`` (the book's design: one Redis connection per client, ``SUBSCRIBE`` to the event
channel) and ``mastodon-ws`` (the client API's WebSocket, ``/api/v1/streaming?stream=user``: Mastodon's
``update`` messages; ``--token`` may be given once per client and is used round robin). Protocol on
stdin/stdout: the recorder prints ``ready <n>`` once its ``n`` clients are connected, then reads one line
``stop <expected>``; it waits until every client has ``expected`` statuses (at most ``--wait`` seconds), and
prints one JSON object: ``{"clients": n, "arrivals": [[status id, wall-clock arrival], ...], "incomplete": k}``.
Arrival times are ``time.time()`` when the bytes were read, so the parent turns them into delivery latencies
against each status's ``posted`` time (same machine, same clock).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import re
import resource
import sys
import time
from typing import Any
from urllib.parse import urlsplit

CONCURRENT_HANDSHAKES = 50
# A Mastodon ``update`` message as the server writes it (``api.websocket_streams``): its Status's id comes first.
UPDATE_ID = re.compile(rb'\{"stream":\[[^\]]*\],"event":"update","payload":"\{\\"id\\":\\"(\d+)\\"')
HANDSHAKE_TIMEOUT_SECONDS = 30.0


class Client(asyncio.Protocol):
    """One connection: parses what arrives and keeps ``(status id, arrival time)`` for every status."""

    def __init__(self, request: bytes, arrivals: list[tuple[int, float]]) -> None:
        self.request = request
        self.arrivals = arrivals
        self.count = 0
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed = False
        self.transport: asyncio.Transport | None = None
        self.buffer = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.transport.write(self.request)  # type: ignore[union-attr]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.ready.done():
            self.ready.set_exception(ConnectionError("closed before subscribing"))

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.buffer += data
        if not self.ready.done():
            if not self.handshake():
                return
            self.ready.set_result(None)
        self.consume(now)

    def handshake(self) -> bool:
        raise NotImplementedError

    def consume(self, now: float) -> None:
        raise NotImplementedError

    def record(self, status_id: int, now: float) -> None:
        self.arrivals.append((status_id, now))
        self.count += 1


class HttpClient(Client):
    """A chunked HTTP response: the API's JSON lines or the live home's server-sent events."""

    def __init__(self, request: bytes, arrivals: list[tuple[int, float]], *, sse: bool) -> None:
        super().__init__(request, arrivals)
        self.sse = sse
        self.body = b""

    def handshake(self) -> bool:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        head, self.buffer = self.buffer[:end], self.buffer[end + 4 :]
        status = head.split(b" ", 2)[1]
        if status != b"200" or b"chunked" not in head.lower():
            self.ready.set_exception(ConnectionError(f"HTTP {status.decode()}"))
            return False
        return True

    def consume(self, now: float) -> None:
        buffer = self.buffer
        while True:
            end = buffer.find(b"\r\n")
            if end < 0:
                break
            size = int(buffer[:end].split(b";")[0], 16)
            if len(buffer) < end + 2 + size + 2:
                break
            self.body += buffer[end + 2 : end + 2 + size]
            buffer = buffer[end + 2 + size + 2 :]
        self.buffer = buffer
        if self.sse:
            *events, self.body = self.body.split(b"\n\n")
            for event in events:
                if event.startswith(b"id: ") and b"\nevent: post\n" in event:
                    self.record(int(event[4 : event.index(b"\n")]), now)
        else:
            *lines, self.body = self.body.split(b"\r\n")
            for line in lines:
                if line:
                    message = json.loads(line)
                    if "id" in message and not message.get("deleted"):
                        self.record(int(message["id"]), now)


class RedisClient(Client):
    """A Redis connection subscribed to the event channel: RESP push messages ``message``, channel, payload."""

    def handshake(self) -> bool:
        reply = self.parse()
        return reply is not None  # the subscribe confirmation

    def parse(self) -> list[bytes] | None:
        """One ``*3`` push message from the buffer, or None when it is not all there yet."""
        buffer = self.buffer
        if not buffer.startswith(b"*"):
            return None
        end = buffer.find(b"\r\n")
        if end < 0:
            return None
        count, position, items = int(buffer[1:end]), end + 2, []
        for _ in range(count):
            end = buffer.find(b"\r\n", position)
            if end < 0:
                return None
            kind, value = buffer[position : position + 1], buffer[position + 1 : end]
            if kind == b"$":
                size = int(value)
                if len(buffer) < end + 2 + size + 2:
                    return None
                items.append(buffer[end + 2 : end + 2 + size])
                position = end + 2 + size + 2
            else:
                items.append(value)
                position = end + 2
        self.buffer = buffer[position:]
        return items

    def consume(self, now: float) -> None:
        while (reply := self.parse()) is not None:
            if reply[0] == b"message":
                event = json.loads(reply[2])
                if event.get("type") == "status.created":
                    self.record(int(event["status"]["id"]), now)


class WebSocketClient(Client):
    """The client API's streaming WebSocket: unmasked server frames whose text is Mastodon's
    ``{"stream": [...], "event": "update", "payload": "<Status JSON>"}``."""

    def handshake(self) -> bool:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        head, self.buffer = self.buffer[:end], self.buffer[end + 4 :]
        status = head.split(b" ", 2)[1]
        if status != b"101":
            self.ready.set_exception(ConnectionError(f"HTTP {status.decode()}"))
            return False
        return True

    def consume(self, now: float) -> None:
        buffer = self.buffer
        while len(buffer) >= 2:
            opcode, size, start = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if size == 126:
                if len(buffer) < 4:
                    break
                size, start = int.from_bytes(buffer[2:4], "big"), 4
            elif size == 127:
                if len(buffer) < 10:
                    break
                size, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + size:
                break
            payload, buffer = buffer[start : start + size], buffer[start + size :]
            if opcode == 1:
                # The status id read where the server puts it, as the SSE readers above read theirs: decoding the
                # message and then the Status inside it, 50,000 times a second, took more than a core of the
                # machine the server runs on, and the figures measured this process instead of the server.
                found = UPDATE_ID.match(payload)
                if found:
                    self.record(int(found[1]), now)
                elif b'"update"' in payload:  # another shape: read it whole
                    message = json.loads(payload)
                    if message.get("event") == "update":
                        self.record(int(json.loads(message["payload"])["id"]), now)
        self.buffer = buffer


def _requests(arguments: argparse.Namespace) -> list[tuple[str, int, bytes]]:
    if arguments.kind == "redis":
        parts = urlsplit(arguments.redis_url)
        command = b"*2\r\n$9\r\nSUBSCRIBE\r\n$%d\r\n%s\r\n" % (len(arguments.channel), arguments.channel.encode())
        if parts.scheme == "unix":
            return [("unix:" + parts.path, 0, command)]
        return [(parts.hostname or "127.0.0.1", parts.port or 6379, command)]
    parts = urlsplit(arguments.url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    if arguments.kind == "mastodon-ws":
        tokens = arguments.token or [""]
        return [
            (
                host,
                port,
                (
                    f"GET /api/v1/streaming?stream=user HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                    f"Connection: Upgrade\r\nSec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
                    f"Sec-WebSocket-Version: 13\r\nAuthorization: Bearer {tokens[n % len(tokens)]}\r\n\r\n"
                ).encode(),
            )
            for n in range(arguments.clients)
        ]
    path = "/statuses/sample.json?percent=100&identifier=recorder-{n}" if arguments.kind == "sample" else "/live/home"
    cookies = arguments.cookie or [""]
    requests = []
    for n in range(arguments.clients):
        cookie = cookies[n % len(cookies)]
        head = [f"GET {path.format(n=n)} HTTP/1.1", f"Host: {host}:{port}", "Accept: */*"]
        if cookie:
            head.append(f"Cookie: {cookie}")
        requests.append((host, port, ("\r\n".join(head) + "\r\n\r\n").encode()))
    return requests


async def _connect(arguments: argparse.Namespace, arrivals: list[tuple[int, float]]) -> list[Client]:
    loop = asyncio.get_running_loop()
    requests = _requests(arguments)
    gate = asyncio.Semaphore(CONCURRENT_HANDSHAKES)

    async def one(n: int) -> Client:
        host, port, request = requests[n % len(requests)]
        if arguments.kind == "redis":
            factory: Any = lambda: RedisClient(request, arrivals)  # noqa: E731
        elif arguments.kind == "mastodon-ws":
            factory = lambda: WebSocketClient(request, arrivals)  # noqa: E731
        else:
            factory = lambda: HttpClient(request, arrivals, sse=arguments.kind == "live")  # noqa: E731
        async with gate:
            if host.startswith("unix:"):
                _, client = await loop.create_unix_connection(factory, host[5:])
            else:
                _, client = await loop.create_connection(factory, host, port)
            await asyncio.wait_for(client.ready, HANDSHAKE_TIMEOUT_SECONDS)
        return client

    return list(await asyncio.gather(*(one(n) for n in range(arguments.clients))))


async def _main(arguments: argparse.Namespace) -> None:
    arrivals: list[tuple[int, float]] = []
    clients = await _connect(arguments, arrivals)
    print(f"ready {len(clients)}", flush=True)
    loop = asyncio.get_running_loop()
    line = await loop.run_in_executor(None, sys.stdin.readline)
    expected = int(line.split()[1]) if line.startswith("stop ") else 0
    deadline = time.monotonic() + arguments.wait
    while time.monotonic() < deadline and any(client.count < expected for client in clients):
        await asyncio.sleep(0.02)
    incomplete = sum(1 for client in clients if client.count < expected)
    for client in clients:
        if client.transport is not None:
            client.transport.close()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    report = {"clients": len(clients), "arrivals": arrivals, "incomplete": incomplete}
    report["fewest"] = sorted(client.count for client in clients)[:3]
    report["closed"] = sum(1 for client in clients if client.closed)
    report["cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 3)
    print(json.dumps(report), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="Record when statuses reach many streaming clients.")
    parser.add_argument("--kind", choices=("sample", "live", "redis", "mastodon-ws"), default="sample")
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--channel", default="")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--cookie", action="append", help="a Cookie header for the live home (repeatable)")
    parser.add_argument("--token", action="append", help="a bearer token for mastodon-ws (repeatable)")
    parser.add_argument("--wait", type=float, default=30.0, help="how long to wait for late deliveries")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(_main(parser.parse_args()))


if __name__ == "__main__":
    main()

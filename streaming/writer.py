"""The one way socialsite serves a long-lived stream: the streaming API (``consumers``) and the live home
(``live``) alike.

``serve`` answers a request with a subscription to the process's hub (``streaming.hub``): it waits for the hub
to be connected (503 if Redis cannot be reached in time), sends the response head and a preamble (a live home's
catch-up), then runs three tasks until the first ends: the **writer**, which moves events from the
subscription's bounded queue to the client in batches, waiting while the client is not reading (``flow``), so
that a client that stops reading leaves events in its queue until the hub cuts it off; a **watcher** for
``http.disconnect``; and any extra task the stream needs (the live home re-reads whom its viewer follows).
Whichever ends first ends the others and the subscription is closed at once, so a client that goes away leaves
nothing behind. A client cut off for falling behind gets the encoder's last word (the API's
``{"disconnect": ...}`` line, the live home's ``reload`` event) and its connection is closed, or aborted after
``STREAMING_CLOSE_GRACE_SECONDS`` if it still does not read.

While the client reads and nothing is queued, the writer does not take part at all: it gives the subscription a
sink (``streaming.hub``) that encodes the event and writes it to the connection through ``flow.write`` in the
hub's own pass over its subscriptions. The writer task only wakes to drain the queue (after the client paused,
or where the server offers no direct write) and for keep-alives.

What the bytes look like is the ``Encoder``'s business: one per stream, asked once per event (and free to cache
what it renders on the event, shared by every client of the process).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Protocol

from django.conf import settings

from streaming.flow import Flow, NoFlow, flow_for
from streaming.hub import Hub
from streaming.subscriptions import Disconnect, Subscription

logger = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

CONNECT_TIMEOUT_SECONDS = 3.0
# Events written to the client in one chunk when several are waiting.
MAX_BATCH = 100
UNAVAILABLE = "The stream is unavailable right now; try again in a few seconds."

# The writer tasks of this process's open streams (what GET /statuses/hub.json reports as "streams").
open_streams: set[asyncio.Task[Any]] = set()


class Encoder(Protocol):
    keepalive: bytes

    def event(self, item: dict[str, Any]) -> bytes:
        """The bytes of one event for this client (``b""`` to send nothing)."""

    def disconnect(self, reason: str) -> bytes:
        """The last bytes before the server closes a client that fell behind."""


async def send_json(send: Send, status: int, body: dict[str, Any], headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    """A complete JSON response (the API's errors, a 503 before a stream starts)."""
    payload = json.dumps(body).encode() + b"\n"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                (b"cache-control", b"no-store"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})


async def wait_for_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def serve(
    send: Send,
    receive: Receive,
    *,
    hub: Hub,
    subscription: Subscription,
    encoder: Encoder,
    headers: Sequence[tuple[bytes, bytes]],
    preamble: Callable[[], Awaitable[Iterable[bytes]]] | None = None,
    unavailable: Callable[[], Awaitable[None]] | None = None,
    extra: Callable[[], Awaitable[None]] | None = None,
    raw_send: Send | None = None,
) -> None:
    """Answer 200 and stream ``subscription`` through ``encoder`` until the client leaves or is cut off (see
    the module docstring). ``preamble`` gives bytes to send before the stream (read once connected);
    ``unavailable`` answers when the hub cannot connect in time (a JSON 503 by default); ``raw_send`` is the
    server's own ``send`` when middleware wrapped it (``flow.keep_raw_send``), for the flow control."""
    flow: Flow = NoFlow()
    tasks: list[asyncio.Task[Any]] = []
    writer: asyncio.Task[None] | None = None
    try:
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_SECONDS):
                await hub.connected.wait()
        except TimeoutError:
            if unavailable is not None:
                await unavailable()
            else:
                await send_json(send, 503, {"error": "unavailable", "message": UNAVAILABLE}, [(b"retry-after", b"5")])
            return
        await send({"type": "http.response.start", "status": 200, "headers": list(headers)})
        first = b"".join(await preamble()) if preamble is not None else b""
        # Daphne writes the status line and headers with the first body message: this sends them now, so the
        # client knows it is subscribed before any event arrives.
        await send({"type": "http.response.body", "body": first, "more_body": True})
        flow = flow_for(raw_send or send, send_buffer_bytes=settings.STREAMING_SEND_BUFFER_BYTES)
        # One setting for every stream: 30 s is well inside the idle timeouts of common proxies (nginx, load
        # balancers: 60 s), for the live pages too.
        keepalive = settings.STREAMING_KEEPALIVE_SECONDS
        writer = asyncio.ensure_future(write_events(subscription, send, flow, encoder, keepalive=keepalive))
        open_streams.add(writer)
        tasks = [writer, asyncio.ensure_future(wait_for_disconnect(receive))]
        if extra is not None:
            tasks.append(asyncio.ensure_future(extra()))
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        failed = [task for task in tasks if task.done() and not task.cancelled() and task.exception() is not None]
        if failed:
            # A bug, not a client: end the response properly rather than leave the client waiting forever.
            logger.error("A stream task failed.", exc_info=failed[0].exception())
            with contextlib.suppress(Exception):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            flow.close(settings.STREAMING_CLOSE_GRACE_SECONDS)
    finally:
        subscription.close()
        for task in tasks:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if writer is not None:
            open_streams.discard(writer)
        flow.release()


async def write_events(
    subscription: Subscription, send: Send, flow: Flow, encoder: Encoder, *, keepalive: float
) -> None:
    """Move events from the subscription to the client until it is cut off or the connection is lost."""
    queue = subscription.queue
    loop = asyncio.get_running_loop()
    # When the client last got bytes (for the keep-alive), and whether this task holds events taken from the
    # queue but not yet sent (the sink must not overtake them).
    last_sent = loop.time()
    holding = False

    async def body(data: bytes, *, more: bool = True) -> None:
        nonlocal last_sent
        flush()
        await send({"type": "http.response.body", "body": data, "more_body": more})
        last_sent = loop.time()

    # Bytes the sink accepted during the hub's current pass, written by ``flush`` at its end (or before
    # anything this task sends, which keeps them first).
    pending: list[bytes] = []

    def flush() -> None:
        nonlocal last_sent
        if pending:
            data = b"".join(pending)
            pending.clear()
            flow.write(data)
            last_sent = loop.time()

    def sink(item: dict[str, Any]) -> bool:
        if holding or flow.lost or not flow.writable():
            return False
        data = encoder.event(item)
        if data:
            if not pending:
                subscription.hub.defer_flush(flush)
            pending.append(data)
        return True

    if flow.direct:
        subscription.sink = sink
    while True:
        if not flow.writable():
            # The client is not reading: leave events in the queue, so that if it never catches up the queue
            # fills and the hub cuts it off, instead of the server buffering its backlog.
            await flow.wait_writable(subscription.ended)
        if flow.lost:
            return
        if queue.empty():
            try:
                # Events written through the sink count as traffic: a keep-alive only after real silence.
                async with asyncio.timeout(max(0.0, keepalive - (loop.time() - last_sent))):
                    item = await queue.get()
            except TimeoutError:
                if loop.time() - last_sent >= keepalive:
                    await body(encoder.keepalive)
                continue
        else:
            item = queue.get_nowait()
        holding = True
        chunks: list[bytes] = []
        notice: Disconnect | None = None
        while True:
            if isinstance(item, Disconnect):
                notice = item
                break
            chunks.append(encoder.event(item))
            if len(chunks) >= MAX_BATCH or queue.empty():
                break
            item = queue.get_nowait()
        if notice is not None:
            chunks.append(encoder.disconnect(notice.reason))
            await body(b"".join(chunks), more=False)
            flow.close(settings.STREAMING_CLOSE_GRACE_SECONDS)
            return
        data = b"".join(chunks)
        if data:
            await body(data)
        holding = False

"""One subscription of the streaming WebSocket (``api.websocket``): the stream's own app (``api.streaming``,
``api.public_streams``, ``api.list_stream``, ``api.direct_stream``) run with the WebSocket as its transport
(``api.stream_transport``).

The app does everything it does for server-sent events: it checks the token, the parameters and its address's
places, subscribes to the hub with its filter, and turns each event into a Mastodon event with its encoder; its
refusals come back here as the WebSocket's ``{"error": ..., "status": ...}``. Only the last step differs:
``WebSocketTransport.serve`` gives the subscription a sink that puts each event's frame on the connection's outbox
(``api.websocket_flow``) in the hub's own pass, where a response would go through ``streaming.writer``. A frame is
Mastodon's message ``{"stream": [...], "event": ..., "payload": "<JSON>"}`` (``Message``: its text and its wire
frame), made once per event and stream name for every client of the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from api.streaming import header
from api.websocket_flow import Message
from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming import writer
from streaming.hub import Hub
from streaming.subscriptions import Disconnect, Subscription

logger = logging.getLogger(__name__)

UNAVAILABLE = "The stream is unavailable right now"


class WebSocketTransport:
    """The transport of one subscription ``names`` (``["hashtag", "redis"]``) of a WebSocket ``connection``
    (``api.websocket.Connection``: ``put``, ``error``, its scope and token), until ``stop`` is set."""

    def __init__(self, connection: Any, names: list[str], stop: asyncio.Event) -> None:
        self.connection = connection
        self.names = names
        self.key = ("websocket", *names)
        self.stop = stop
        self.subscription: Subscription | None = None  # the hub's, once the stream runs

    @property
    def ending(self) -> bool:
        """Whether the stream's hub subscription is over (unsubscribed, or cut off by the hub) while its task may
        still be winding down."""
        return self.subscription is not None and self.subscription.closed

    def frame(self, event: str, data: str) -> Message:
        return Message(json.dumps({"stream": self.names, "event": event, "payload": data}, separators=(",", ":")))

    async def run(self, app: Any, query: str) -> None:
        """Run the stream ``app`` (with its query string, as its HTTP path would have it) for this subscription."""
        connection = self.connection
        scope = {
            "type": "http",
            "method": "GET",
            "scheme": "https" if connection.scope.get("scheme") in ("wss", "https") else "http",
            "path": "/api/v1/streaming",
            # The WebSocket's client: each of its streams takes a place of that address, as any stream does.
            "client": connection.scope.get("client"),
            "query_string": query.encode(),
            "headers": [
                (b"authorization", f"Bearer {connection.token}".encode()),
                (b"host", header(connection.scope, b"host").encode()),
            ],
        }
        status = 200

        async def receive() -> dict[str, Any]:
            await self.stop.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            # Only a refusal (before the stream starts) comes through here: its status and JSON (or text) error.
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif status != 200:
                body = message.get("body", b"")
                try:
                    text = str(json.loads(body).get("error", "Error"))
                except (ValueError, AttributeError):
                    text = body.decode("utf-8", "replace").strip() or "Error"
                await connection.error(text, status)

        try:
            await app(scope, receive, send, transport=self)
        except UNAVAILABLE_ERRORS:
            await connection.error(UNAVAILABLE, 503)

    async def serve(
        self,
        send: Any,
        receive: Any,
        *,
        hub: Hub,
        subscription: Subscription,
        encoder: Any,
        preamble: Any = None,
        extra: Any = None,
        **_: Any,
    ) -> None:
        """``streaming.writer.serve`` for a WebSocket subscription: once the hub is connected and the stream's
        preamble read (what it reads counts, such as the statuses the ``user`` stream will send edits of; its
        bytes are server-sent events'), each event's frame goes to the outbox from the hub's pass, until the
        subscription ends (unsubscribed, the connection gone or cut off, or the hub cut it off: a suspension)."""
        tasks: list[asyncio.Task[Any]] = []
        self.subscription = subscription
        try:
            try:
                async with asyncio.timeout(writer.CONNECT_TIMEOUT_SECONDS):
                    await hub.connected.wait()
            except TimeoutError:
                await self.connection.error(UNAVAILABLE, 503)
                return
            if preamble is not None:
                await preamble()
            put, defer = self.connection.put, hub.defer_flush

            def sink(item: dict[str, Any]) -> bool:
                message = encoder.event(item)
                if message:
                    put(message, defer)  # written with the pass's other messages, at its end
                return True  # the outbox bounds what waits, and cuts the connection off past it

            async def forward() -> None:
                # What queued before the sink was set (the preamble's read), then only the hub's cut-off notice: the
                # subscription offers to the sink only while its queue is empty, so nothing is overtaken.
                while not isinstance(item := await subscription.queue.get(), Disconnect):
                    message = encoder.event(item)
                    if message:
                        put(message)

            subscription.sink = sink
            forwarding = asyncio.ensure_future(forward())
            writer.open_streams.add(forwarding)
            tasks = [forwarding, asyncio.ensure_future(writer.wait_for_disconnect(receive))]
            if extra is not None:
                tasks.append(asyncio.ensure_future(extra()))
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            failed = [task for task in tasks if task.done() and not task.cancelled() and task.exception() is not None]
            if failed:
                logger.error("A WebSocket stream task failed.", exc_info=failed[0].exception())
        finally:
            subscription.close()
            for task in tasks:
                if not task.done():
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                writer.open_streams.discard(task)

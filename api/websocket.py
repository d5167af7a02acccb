"""Mastodon's streaming WebSocket (``/api/v1/streaming``): one connection, many streams, chosen with
``{"type": "subscribe", "stream": "user"}`` (or ``user:notification``, ``public``, ``public:local``, ``hashtag``
and ``hashtag:local`` with ``"tag"``, ``list`` with ``"list"``, ``direct``) and ended with ``unsubscribe``; each
event arrives as ``{"stream": ["user"], "event": "update", "payload": "<the Status as a JSON string>"}``.

Every subscription runs the matching stream (``api.streaming``, ``api.public_streams``, ...) with the WebSocket as
its transport (``api.websocket_streams``): the same authentication, subscription, policy, encoder and cut-offs as
its server-sent events, never a second implementation, and each event's message is put on the connection straight
from the hub. Everything sent leaves through one bounded queue per connection, written out while the client reads
(``api.websocket_flow``): a client that stops reading is closed with 1013 rather than grow the server. The token
comes by ``Authorization`` header, ``?access_token=`` or ``Sec-WebSocket-Protocol``
(the protocol is then accepted back, as Mastodon does); a bad one closes the handshake.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlencode

from asgiref.sync import sync_to_async

from api.direct_stream import direct_stream
from api.errors import INVALID_TOKEN
from api.list_stream import list_stream
from api.public_streams import hashtag, public
from api.streaming import header, notification_stream, token_text, user_stream, viewer
from api.websocket_flow import TRY_AGAIN_LATER, Message, Outbox, websocket_flow_for
from api.websocket_streams import WebSocketTransport
from socialsite.redis_client import UNAVAILABLE_ERRORS

logger = logging.getLogger(__name__)

# Mastodon's stream names as clients send them in {"type": "subscribe", "stream": ...}: protocol words, not
# Redis keys (those are built in timelines/keys).
STREAMS: dict[str, Callable[..., Any]] = {
    "user": user_stream,
    "user:notification": notification_stream,
    "public": public,
    "public:local": public,
    "hashtag": hashtag,
    "hashtag:local": hashtag,
    "list": list_stream,
    "direct": direct_stream,
}
MAX_SUBSCRIPTIONS = 20
MAX_MESSAGE_BYTES = 4096


def _token(scope: dict[str, Any]) -> tuple[str | None, bool]:
    """The token and whether it came as the WebSocket protocol (which must then be accepted back)."""
    raw = token_text(scope)
    if raw:
        return raw, False
    protocol = header(scope, b"sec-websocket-protocol").split(",")[0].strip()
    return (protocol, True) if protocol else (None, False)


class Connection:
    def __init__(self, scope: dict[str, Any], send: Any, token: str) -> None:
        self.scope = scope
        self.token = token
        self.streams: dict[tuple[str, ...], tuple[asyncio.Task[None], asyncio.Event, WebSocketTransport]] = {}
        # Every message leaves through one bounded queue, written out while the client reads (api.websocket_flow).
        self.flow = websocket_flow_for(send)
        self.outbox = Outbox(send, self.flow)
        self.closing: asyncio.Task[None] | None = None

    async def send(self, message: dict[str, Any]) -> None:
        self.put(Message(json.dumps(message, separators=(",", ":"))))

    def put(self, message: Message, defer: Callable[[Callable[[], None]], None] | None = None) -> None:
        """Send ``message`` (see ``Outbox.put``); a connection that cannot take it is cut off."""
        if not self.outbox.put(message, defer) and self.closing is None:
            # The client stopped reading: its streams end now, and the connection closes (or is aborted).
            self.closing = asyncio.ensure_future(self.cut_off())

    async def cut_off(self) -> None:
        logger.info("Closed a streaming WebSocket whose client fell behind.")
        for _, stop, _ in self.streams.values():
            stop.set()
        await self.outbox.close(TRY_AGAIN_LATER)

    async def error(self, text: str, status: int = 400) -> None:
        await self.send({"error": text, "status": status})

    async def handle(self, message: dict[str, Any]) -> None:
        if self.outbox.cut_off:
            return
        kind, stream = message.get("type"), message.get("stream")
        if kind not in ("subscribe", "unsubscribe") or not isinstance(stream, str):
            await self.error("Unknown message type")
            return
        if stream not in STREAMS:
            await self.error("Unknown stream type")
            return
        tag = message.get("tag")
        if stream.startswith("hashtag") and not isinstance(tag, str):
            await self.error("Missing tag name parameter")
            return
        chosen = message.get("list")
        if stream == "list" and not isinstance(chosen, str | int):
            await self.error("Missing list name parameter")
            return
        if stream.startswith("hashtag"):
            key: tuple[str, ...] = (stream, tag.lower())  # type: ignore[union-attr]
        elif stream == "list":
            key = (stream, str(chosen))
        else:
            key = (stream,)
        if kind == "unsubscribe":
            await self.stop(key)
            return
        running = self.streams.get(key)
        if running is not None and not running[0].done():
            if not running[2].ending:
                return  # subscribed already
            # Its hub subscription was cut off (a suspension, since lifted) and the stream is still winding down:
            # the new subscription takes its place once it has, instead of being taken for a duplicate.
            await self.stop(key)
        if len(self.streams) >= MAX_SUBSCRIPTIONS:
            await self.error("Too many subscriptions", 429)
            return
        stop = asyncio.Event()
        if stream == "list":
            query, names = urlencode({"list": str(chosen)}), [stream, str(chosen)]
        else:
            query, names = (urlencode({"tag": tag}) if tag is not None else ""), [stream, *([tag] if tag else [])]
        transport = WebSocketTransport(self, names, stop)
        task = asyncio.ensure_future(transport.run(STREAMS[stream], query))
        self.streams[key] = (task, stop, transport)

    async def stop(self, key: tuple[str, ...]) -> None:
        found = self.streams.pop(key, None)
        if found is not None:
            task, stop, _ = found
            stop.set()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 10)

    async def close(self) -> None:
        for key in list(self.streams):
            await self.stop(key)


async def websocket_stream(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``/api/v1/streaming`` over WebSocket."""
    if scope["type"] != "websocket":
        return
    if (await receive())["type"] != "websocket.connect":
        return
    raw, as_protocol = _token(scope)
    uid = None
    if raw:
        with contextlib.suppress(*UNAVAILABLE_ERRORS):
            uid, _ = await sync_to_async(viewer, thread_sensitive=False)(raw)
    if uid is None or raw is None:
        # Closing before accepting refuses the handshake (403): the client sees the token was not good.
        await send({"type": "websocket.close", "code": 4001, "reason": INVALID_TOKEN})
        return
    await send({"type": "websocket.accept", **({"subprotocol": raw} if as_protocol else {})})
    connection = Connection(scope, send, raw)
    writing = asyncio.ensure_future(connection.outbox.run())
    try:
        initial = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if initial.get("stream"):
            await connection.handle(
                {
                    "type": "subscribe",
                    "stream": initial["stream"][0],
                    "tag": (initial.get("tag") or [None])[0],
                    "list": (initial.get("list") or [None])[0],
                }
            )
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                break
            if message["type"] != "websocket.receive":
                continue
            text = message.get("text") or (message.get("bytes") or b"").decode("utf-8", "replace")
            if len(text) > MAX_MESSAGE_BYTES:
                await connection.error("Message too long")
                continue
            try:
                parsed = json.loads(text)
            except ValueError:
                await connection.error("Invalid JSON")
                continue
            if not isinstance(parsed, dict):
                await connection.error("Invalid message")
                continue
            await connection.handle(parsed)
    finally:
        await connection.close()
        writing.cancel()
        connection.flow.release()

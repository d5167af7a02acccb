"""Mastodon's streaming WebSocket (``/api/v1/streaming``): one connection, many streams, chosen with
``{"type": "subscribe", "stream": "user"}`` (or ``user:notification``, ``public``, ``public:local``, ``hashtag``
and ``hashtag:local`` with ``"tag"``, ``list`` with ``"list"``, ``direct``) and ended with ``unsubscribe``; each
event arrives as ``{"stream": ["user"], "event": "update", "payload": "<the Status as a JSON string>"}``.

Every subscription runs the matching server-sent-events stream (``api.streaming``, ``api.public_streams``) and
passes its events on: the same authentication, subscription, policy and cut-offs, never a second
implementation. Everything sent leaves through one bounded queue per connection, written out while the client reads
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
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs, urlencode

from asgiref.sync import sync_to_async

from api.direct_stream import direct_stream
from api.errors import INVALID_TOKEN
from api.list_stream import list_stream
from api.public_streams import hashtag, public
from api.streaming import header, notification_stream, token_text, user_stream, viewer
from api.websocket_flow import TRY_AGAIN_LATER, Outbox, websocket_flow_for
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
# Events framed lately, by stream and bytes: every client of an event gets the same (a burst is a few hundred).
FRAMED_CACHE_SIZE = 512


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
        self.streams: dict[tuple[str, ...], tuple[asyncio.Task[None], asyncio.Event]] = {}
        # Every message leaves through one bounded queue, written out while the client reads (api.websocket_flow).
        self.flow = websocket_flow_for(send)
        self.outbox = Outbox(send, self.flow)
        self.closing: asyncio.Task[None] | None = None

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(json.dumps(message, separators=(",", ":")))

    async def send_text(self, text: str) -> None:
        if not self.outbox.put(text) and self.closing is None:
            # The client stopped reading: its streams end now, and the connection closes (or is aborted).
            self.closing = asyncio.ensure_future(self.cut_off())

    async def cut_off(self) -> None:
        logger.info("Closed a streaming WebSocket whose client fell behind.")
        for _, stop in self.streams.values():
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
        if key in self.streams:
            return
        if len(self.streams) >= MAX_SUBSCRIPTIONS:
            await self.error("Too many subscriptions", 429)
            return
        stop = asyncio.Event()
        if stream == "list":
            query, names = urlencode({"list": str(chosen)}), [stream, str(chosen)]
        else:
            query, names = (urlencode({"tag": tag}) if tag is not None else ""), [stream, *([tag] if tag else [])]
        task = asyncio.ensure_future(self.relay(STREAMS[stream], names, query, stop))
        self.streams[key] = (task, stop)

    async def stop(self, key: tuple[str, ...]) -> None:
        found = self.streams.pop(key, None)
        if found is not None:
            task, stop = found
            stop.set()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 10)

    async def close(self) -> None:
        for key in list(self.streams):
            await self.stop(key)

    async def relay(self, app: Any, names: list[str], query: str, stop: asyncio.Event) -> None:
        """Run the stream's server-sent-events app and pass each of its events on as a WebSocket message."""
        scope = {
            "type": "http",
            "method": "GET",
            "scheme": "https" if self.scope.get("scheme") in ("wss", "https") else "http",
            "path": "/api/v1/streaming",
            # The WebSocket's client: each of its streams takes a place of that address, as any stream does.
            "client": self.scope.get("client"),
            "query_string": query.encode(),
            "headers": [
                (b"authorization", f"Bearer {self.token}".encode()),
                (b"host", header(self.scope, b"host").encode()),
            ],
        }
        state: dict[str, Any] = {"status": 200, "buffer": b"", "event": {}}

        async def receive() -> dict[str, Any]:
            await stop.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                state["status"] = int(message["status"])
                return
            body = message.get("body", b"")
            if state["status"] != 200:
                with contextlib.suppress(ValueError, AttributeError):
                    await self.error(json.loads(body).get("error", "Error"), state["status"])
                return
            await self.frames(body, names, state)

        try:
            await app(scope, receive, send)
        except UNAVAILABLE_ERRORS:
            await self.error("The stream is unavailable right now", 503)

    async def frames(self, body: bytes, names: list[str], state: dict[str, Any]) -> None:
        if not state["buffer"] and not state["event"] and body.endswith(b"\n\n"):
            # Whole events, as the streams write them: the same bytes go to every client of an event, so their
            # messages are made once per process (``_framed``) rather than parsed and encoded for each.
            for text in _framed(tuple(names), body):
                await self.send_text(text)
            return
        *lines, state["buffer"] = (state["buffer"] + body).split(b"\n")
        for line in lines:
            text = line.decode("utf-8", "replace")
            if text.startswith(":"):
                continue
            if text == "":
                event = state["event"]
                state["event"] = {}
                if "event" in event:
                    await self.send({"stream": names, "event": event["event"], "payload": event.get("data", "")})
                continue
            name, _, value = text.partition(": ")
            state["event"][name] = value


@lru_cache(maxsize=FRAMED_CACHE_SIZE)
def _framed(names: tuple[str, ...], body: bytes) -> tuple[str, ...]:
    """The WebSocket messages of whole server-sent events ``body`` of the stream ``names``, in order."""
    messages = []
    for block in body.split(b"\n\n"):
        event: dict[str, str] = {}
        for line in block.split(b"\n"):
            text = line.decode("utf-8", "replace")
            if text and not text.startswith(":"):
                name, _, value = text.partition(": ")
                event[name] = value
        if "event" in event:
            message = {"stream": list(names), "event": event["event"], "payload": event.get("data", "")}
            messages.append(json.dumps(message, separators=(",", ":")))
    return tuple(messages)


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

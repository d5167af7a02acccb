"""Flow control for the streaming WebSocket (``api.websocket``): a client that stops reading cannot make the server
hold more than a bounded amount for it.

daphne's WebSocket ``send`` never waits: it hands the frame to autobahn, which writes it to the Twisted transport,
whose user-space buffer has no limit (daphne issue #170). The streams behind a WebSocket (``api.streaming`` and
the others, run once per subscription) would see every write succeed, so their own bounded queues would never
fill. Here, as ``streaming.flow`` does for server-sent events:

- ``WebSocketFlow`` registers itself as the transport's push producer: Twisted pauses it while more than 64 KiB
  wait unsent and resumes it once they drained into the kernel, whose send buffer is capped
  (``STREAMING_SEND_BUFFER_BYTES``, ``SO_SNDBUF``);
- ``Outbox`` is the connection's one queue of outgoing messages, bounded by ``STREAMING_QUEUE_SIZE`` messages and
  ``STREAMING_WEBSOCKET_BUFFER_BYTES`` bytes, written out by one task only while the flow is not paused. While
  nothing waits in it and the client reads, a message is written at once, in the hub's pass that made it: its
  frame (``Message.wire``, made once per event for every client, as autobahn's ``PreparedMessage`` makes a
  broadcast's) goes straight to the socket, as ``streaming.flow`` writes server-sent events, or through
  autobahn where it holds frames of its own or compresses.

A message that would pass either bound cuts the connection off: the queue is dropped, the connection's streams
end (their hub subscriptions go), a close frame (1013, "try again later") is queued behind what Twisted holds, and
the connection is aborted after ``STREAMING_CLOSE_GRACE_SECONDS`` if the client has still not read it. A client
then reconnects and reads its timeline again, as after any disconnection. What one stalled client holds is its
kernel buffer, under 64 KiB plus one frame in Twisted, and the outbox's bound.

On a server other than daphne (a test communicator), there is no transport to watch: ``NoFlow`` is always writable
and the outbox still bounds what waits for a ``send`` that itself waits.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from autobahn.websocket.protocol import PreparedMessage
from django.conf import settings
from twisted.internet.interfaces import IPushProducer
from zope.interface import implementer

from streaming.flow import NoFlow, PushGate, plain_socket, write_through

logger = logging.getLogger(__name__)

TRY_AGAIN_LATER = 1013  # RFC 6455's "Try Again Later" close code


class Message:
    """One outgoing text message: its text (for an ASGI ``send``), its UTF-8 payload and its whole frame as written
    on the wire (unmasked, one frame: the same bytes for every client it goes to)."""

    __slots__ = ("payload", "text", "wire")

    def __init__(self, text: str) -> None:
        self.text = text
        self.payload = text.encode()
        self.wire: bytes = PreparedMessage(self.payload, False, False, True).payloadHybi

    def __len__(self) -> int:
        return len(self.wire)


@implementer(IPushProducer)
class WebSocketFlow(PushGate):
    """The push producer of one daphne WebSocket's transport: paused while the client is not reading."""

    direct = True  # ``write`` sends a message now (NoFlow: through the ASGI ``send``)

    def __init__(self, protocol: Any, send_buffer_bytes: int | None) -> None:
        self.protocol = protocol
        self.transport = protocol.transport
        self._writable = asyncio.Event()
        self._writable.set()
        self.lost = False
        self._abort: asyncio.TimerHandle | None = None
        if getattr(self.transport, "producer", None) is not None:
            # The HTTP channel the connection was upgraded from stays registered, though it no longer serves it.
            self.transport.unregisterProducer()
        self.transport.registerProducer(self, True)
        self._socket = plain_socket(self.transport, send_buffer_bytes)

    def write(self, messages: list[Message]) -> None:
        """Send ``messages`` now, in order (the caller checked ``writable``): their frames straight to the connection,
        in one write, while autobahn has nothing of its own queued and compresses nothing, else through autobahn's
        ``sendMessage``."""
        protocol = self.protocol
        if self.lost or protocol.state != protocol.STATE_OPEN:
            return  # closing or closed: autobahn would refuse them too
        if getattr(protocol, "_perMessageCompress", None) is None and not getattr(protocol, "send_queue", None):
            data = messages[0].wire if len(messages) == 1 else b"".join(message.wire for message in messages)
            write_through(self.transport, self._socket, data)
        else:
            for message in messages:
                protocol.sendMessage(message.payload, False)

    def close(self, grace_seconds: float) -> None:
        """Abort the connection after ``grace_seconds`` unless it closed by then."""
        self._abort = asyncio.get_running_loop().call_later(grace_seconds, self._abort_if_open)

    def _abort_if_open(self) -> None:
        if getattr(self.transport, "connected", False):
            logger.info("Aborted a streaming WebSocket whose client stopped reading.")
            self.transport.abortConnection()

    def release(self) -> None:
        if getattr(self.transport, "producer", None) is self:
            with contextlib.suppress(Exception):
                self.transport.unregisterProducer()


def websocket_flow_for(send: Any) -> WebSocketFlow | NoFlow:
    """The flow of the WebSocket ``send`` belongs to: daphne hands ``partial(server.handle_reply, protocol)``."""
    if isinstance(send, functools.partial) and len(send.args) == 1:
        protocol = send.args[0]
        if hasattr(getattr(protocol, "transport", None), "registerProducer"):
            try:
                return WebSocketFlow(protocol, settings.STREAMING_SEND_BUFFER_BYTES)
            except Exception:
                logger.warning("Could not attach flow control to a daphne WebSocket.", exc_info=True)
    return NoFlow()


class Outbox:
    """The bounded queue of one WebSocket's outgoing text messages, written out while the client reads."""

    def __init__(self, send: Callable[[dict[str, Any]], Awaitable[None]], flow: WebSocketFlow | NoFlow) -> None:
        self.send = send
        self.flow = flow
        self.waiting: collections.deque[Message] = collections.deque()
        # Accepted during the hub's current pass, written at its end (``flush``): never counted against the bounds,
        # as they are written whatever the client does.
        self.pending: list[Message] = []
        self.size = 0
        self.ready = asyncio.Event()
        self.ended = asyncio.Event()
        self.max_messages = settings.STREAMING_QUEUE_SIZE
        self.max_bytes = settings.STREAMING_WEBSOCKET_BUFFER_BYTES

    @property
    def cut_off(self) -> bool:
        return self.ended.is_set()

    def put(self, message: Message, defer: Callable[[Callable[[], None]], None] | None = None) -> bool:
        """Send ``message`` now if nothing waits and the client reads (with ``defer``, the hub's ``defer_flush``:
        at the end of the hub's pass, with the pass's other messages, in one write), else queue it; False (and the
        outbox ends) when queueing would pass a bound, or once it has ended."""
        if self.ended.is_set():
            return False
        if not self.waiting and self.flow.direct and self.flow.writable():
            if defer is None:
                self.pending.append(message)
                self.flush()
            else:
                if not self.pending:
                    defer(self.flush)
                self.pending.append(message)
            return True
        if len(self.waiting) >= self.max_messages or self.size + len(message) > self.max_bytes:
            self.waiting.clear()
            self.size = 0
            self.ended.set()
            self.ready.set()
            return False
        self.waiting.append(message)
        self.size += len(message)
        self.ready.set()
        return True

    def flush(self) -> None:
        """Write what ``put`` accepted during the hub's pass."""
        if self.pending:
            messages, self.pending = self.pending, []
            self.flow.write(messages)  # type: ignore[union-attr]

    async def run(self) -> None:
        """Write the queue out in order, each message once the client reads; until the outbox ends."""
        while not self.ended.is_set():
            await self.ready.wait()
            if not self.waiting:
                self.ready.clear()
                continue
            await self.flow.wait_writable(self.ended)
            if self.ended.is_set() or self.flow.lost:
                return
            message = self.waiting.popleft()
            self.size -= len(message)
            if self.flow.direct:
                self.flow.write([message])  # type: ignore[union-attr]
            else:
                await self.send({"type": "websocket.send", "text": message.text})

    async def close(self, code: int) -> None:
        """After a cut-off: ask for the close (its frame waits behind what Twisted holds) and abort it later."""
        with contextlib.suppress(Exception):
            await self.send({"type": "websocket.close", "code": code})
        self.flow.close(settings.STREAMING_CLOSE_GRACE_SECONDS)

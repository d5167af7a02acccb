"""Write-side flow control for streaming responses: knowing when a client has stopped reading.

Daphne gives an ASGI application no backpressure. ``send({"type": "http.response.body", ...})`` is a coroutine
that never waits: it calls Twisted's ``Request.write`` at once, and Twisted appends the bytes to the
connection's user-space buffer, which has no limit (daphne issue #170 describes the same for WebSockets). A
client that stops reading would make the server's memory grow without bound while the application believes
every write succeeded, and a per-client queue in front of ``send`` would never fill.

Twisted itself does know: when a connection's buffer holds more than ``bufferSize`` (64 KiB) unsent bytes,
the transport calls ``pauseProducing()`` on its registered push producer, and ``resumeProducing()`` once the
buffer has drained into the kernel. ``twisted.web.http.HTTPChannel`` is that producer and forwards both calls
to a producer registered on the current request (``Request.registerProducer``). ``DaphneFlow`` registers
itself there and turns the calls into an ``asyncio.Event``: the stream writer waits for it before each write,
stops taking events from its subscription while the client is not reading, the subscription's bounded queue
fills, and the hub cuts the client off (see ``streaming.hub``). What one stalled client can hold is then
bounded: its kernel send buffer (capped with ``SO_SNDBUF``, ``settings.STREAMING_SEND_BUFFER_BYTES``), under
64 KiB plus one write in Twisted, and its queue of references to events shared with every other client.

Reaching the request needs one detail of daphne 4: the ``send`` callable it hands the application is
``functools.partial(server.handle_reply, request)``. ``flow_for`` checks that shape and falls back to
``NoFlow`` on any other server (or a test communicator), where the bounded queue still protects memory if the
server's ``send`` itself waits for the client, as uvicorn's and hypercorn's do.

Writing: ``DaphneFlow.write`` puts a piece of the response body (chunk-framed when the response is chunked)
straight on the connection's socket when Twisted has nothing of it buffered, and hands anything the kernel did
not take to the transport, which buffers it and pauses the producer as above. An event fanned out to 1,000
streams thus costs 1,000 ``send`` calls, not 1,000 trips through ASGI ``send``, ``Request.write`` and a
register-write-unregister cycle of the socket in the event loop's selector. Only on a plain TCP (or Unix)
connection: over TLS, or when the transport's buffer attributes are not the ones this code knows, ``write``
goes through the transport. The response head must have been sent (``write`` is for what follows it).

Closing: Twisted's ``loseConnection`` waits until the buffer is flushed, which a client that does not read
never allows, so ``close`` also schedules ``abortConnection`` after a grace period. The response cannot ask
for the close itself (Twisted decides keep-alive from the request's headers), so ``close`` does it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import socket
from typing import Any, Protocol

from twisted.internet.interfaces import IPushProducer
from zope.interface import implementer

logger = logging.getLogger(__name__)


class Flow(Protocol):
    lost: bool  # the connection is gone
    direct: bool  # ``write`` may be called (the response head is out); else body goes through ASGI ``send``

    def write(self, data: bytes) -> None: ...

    def writable(self) -> bool: ...

    async def wait_writable(self, ended: asyncio.Event) -> None: ...

    def close(self, grace_seconds: float) -> None: ...

    def release(self) -> None: ...


class NoFlow:
    """A server without a way to observe its send buffer: always writable."""

    lost = False
    direct = False

    def write(self, data: bytes) -> None:
        raise NotImplementedError("NoFlow writes through the ASGI send")

    def writable(self) -> bool:
        return True

    async def wait_writable(self, ended: asyncio.Event) -> None:
        return None

    def close(self, grace_seconds: float) -> None:
        return None

    def release(self) -> None:
        return None


class PushGate:
    """What a push producer of one connection shares: the event of whether the client is reading, set and cleared
    by Twisted (``IPushProducer``, on the event loop's thread), and what the stream writer asks of it."""

    _writable: asyncio.Event
    lost: bool

    # IPushProducer, called by Twisted on the event loop's thread.

    def pauseProducing(self) -> None:
        self._writable.clear()

    def resumeProducing(self) -> None:
        self._writable.set()

    def stopProducing(self) -> None:
        # The connection is gone; wake the writer so it notices.
        self.lost = True
        self._writable.set()

    # What the stream writer uses.

    def writable(self) -> bool:
        return self._writable.is_set()

    async def wait_writable(self, ended: asyncio.Event) -> None:
        """Return when the client has drained its buffer, or when ``ended`` is set (the subscription was cut
        off while the client was not reading)."""
        if self._writable.is_set() or ended.is_set():
            return
        resumed = asyncio.ensure_future(self._writable.wait())
        cut = asyncio.ensure_future(ended.wait())
        try:
            await asyncio.wait({resumed, cut}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            resumed.cancel()
            cut.cancel()


@implementer(IPushProducer)
class DaphneFlow(PushGate):
    """Registered as the push producer of one daphne request; paused while the client is not reading."""

    def __init__(self, request: Any, send_buffer_bytes: int | None) -> None:
        self.request = request
        self.channel = request.channel
        self.transport = request.channel.transport
        self._writable = asyncio.Event()
        # The channel may already be waiting for the transport (a large response head); then the first
        # pause was delivered before this producer existed.
        if not getattr(request.channel, "_waitingForTransport", False):
            self._writable.set()
        self.lost = False
        self._abort: asyncio.TimerHandle | None = None
        request.registerProducer(self, True)
        self._socket = plain_socket(self.transport, send_buffer_bytes)
        self.direct = True

    def write(self, data: bytes) -> None:
        """Send ``data`` as the next piece of the response body: to the socket at once when nothing is waiting
        before it, else (and whatever the kernel did not take) through the transport's buffer."""
        if self.request.finished:
            return
        if self.request.chunked:
            data = b"%x\r\n%b\r\n" % (len(data), data)
        write_through(self.transport, self._socket, data)

    def close(self, grace_seconds: float) -> None:
        """Close the connection once what is buffered is sent, or abort it after ``grace_seconds``."""
        self.release()
        if not self.transport.connected:
            return
        # Through the channel, not the transport: HTTPChannel unregisters itself as the transport's producer
        # first. Left registered and paused, it would be asked to resume when the buffer drains, and the
        # transport would never get to closing.
        self.channel.loseConnection()
        self._abort = asyncio.get_running_loop().call_later(grace_seconds, self._abort_if_open)

    def _abort_if_open(self) -> None:
        if self.transport.connected:
            logger.info("Aborted a streaming connection whose client stopped reading.")
            self.transport.abortConnection()

    def release(self) -> None:
        """Unregister from the request (idempotent); the connection itself is left alone."""
        if getattr(self.request, "producer", None) is self:
            with contextlib.suppress(Exception):
                self.request.unregisterProducer()


def plain_socket(transport: Any, send_buffer_bytes: int | None) -> socket.socket | None:
    """The socket of a Twisted ``transport`` that ``write_through`` may write to straight (its send buffer capped at
    ``send_buffer_bytes``), or None: only a plain connection whose buffers are the ones this code reads (Twisted's
    FileDescriptor: ``dataBuffer`` and ``_tempDataLen``, both empty when nothing waits to be sent), not TLS."""
    handle = transport.getHandle() if hasattr(transport, "getHandle") else None
    if not isinstance(handle, socket.socket):
        return None
    if send_buffer_bytes:
        with contextlib.suppress(OSError):
            handle.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer_bytes)
    plain = (
        getattr(transport, "TLS", True) is False
        and hasattr(transport, "_tempDataLen")
        and hasattr(transport, "dataBuffer")
    )
    return handle if plain else None


def write_through(transport: Any, sock: socket.socket | None, data: bytes) -> None:
    """Write ``data`` to the connection: to ``sock`` (``plain_socket``) at once when the transport holds nothing
    before it, else (and whatever the kernel did not take) through the transport, which buffers it and pauses its
    producer past 64 KiB."""
    if (
        sock is not None
        and transport.connected
        and not transport.disconnecting
        and not transport._tempDataLen
        and not transport.dataBuffer
    ):
        try:
            sent = sock.send(data)
        except OSError:
            # Would block, or the connection is failing: the transport buffers it, or finds the loss itself.
            sent = 0
        if sent == len(data):
            return
        data = data[sent:]
    transport.write(data)


RAW_SEND = "streaming.raw_send"


def keep_raw_send(app: Any) -> Any:
    """Wrap an ASGI app so it can find the server's own ``send`` under ``scope[RAW_SEND]``: middleware such as
    Channels' sessions or the site's security headers wraps ``send``, which hides the daphne request
    ``flow_for`` needs. The outermost wrapper wins (``socialsite.asgi`` wraps the whole site)."""

    async def wrapped(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await app(scope if RAW_SEND in scope else {**scope, RAW_SEND: send}, receive, send)

    return wrapped


def flow_for(send: Any, *, send_buffer_bytes: int | None = None) -> Flow:
    """The flow control of the response ``send`` belongs to: ``DaphneFlow`` on daphne, else ``NoFlow``."""
    if isinstance(send, functools.partial) and send.args:
        request = send.args[0]
        channel = getattr(request, "channel", None)
        if channel is not None and hasattr(request, "registerProducer") and hasattr(channel, "transport"):
            try:
                return DaphneFlow(request, send_buffer_bytes)
            except Exception:
                logger.warning("Could not attach flow control to a daphne request.", exc_info=True)
    return NoFlow()

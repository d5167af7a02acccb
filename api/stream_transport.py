"""How a client API stream reaches its client: the one thing that differs between a server-sent-events response
and a WebSocket subscription (``api.websocket_streams``).

Every stream (``api.streaming``, ``api.public_streams``, ``api.list_stream``, ``api.direct_stream``) decides what
its person gets the same way whatever carries it: the same hub subscription and filter, the same encoder turning
a hub event into a Mastodon event (``event`` name and JSON ``data``). The transport gives the encoder its
``frame`` (the bytes of one event as this transport sends them) and runs the stream (``serve``: the response of
``streaming.writer.serve``, or a WebSocket's outbox). A frame of a shared event is made once per process for all
the clients of one transport and ``key`` (``MastodonEncoder`` caches it on the event under ``key``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Hashable
from typing import Any, Protocol

from streaming import writer


class Transport(Protocol):
    key: Hashable  # frames cached on a shared event under it: equal keys, equal frames

    def frame(self, event: str, data: str) -> Any:
        """One Mastodon event (``update``, ``delete``, ...) with its ``data``, as sent; falsy for nothing."""

    def serve(self, send: Any, receive: Any, **stream: Any) -> Awaitable[None]:
        """Run the stream until its client leaves or is cut off (``streaming.writer.serve``'s arguments)."""


class ServerSentEvents:
    """Mastodon's server-sent-events framing, through the site's stream writer (flow control, keep-alives)."""

    key = "sse"

    def frame(self, event: str, data: str) -> bytes:
        return f"event: {event}\ndata: {data}\n\n".encode()

    def serve(self, send: Any, receive: Any, **stream: Any) -> Awaitable[None]:
        return writer.serve(send, receive, **stream)


SSE = ServerSentEvents()

"""Mastodon's ``direct`` stream (``GET /api/v1/streaming/direct``, and ``direct`` on the WebSocket): the token's
person's conversations of direct messages as they change. ``event: conversation`` carries the Conversation (as
``/api/v1/conversations`` shows it) when a message reaches one of them, theirs included, when its last message is
edited (``message.updated``), or when they read one;
``event: delete`` the id of a message deleted from one.

It is the ``user`` stream's subscription without posts (``api.streaming.UserStream(posts=False)``: the person's
own notices, their suspension ending it at once) with an encoder of its own. A ``message.created`` notice carries
the message (and ``messages.changed`` with ``read`` a conversation the person just read, which is sent again, as
Mastodon does); the Conversation around it is read off the event loop and offered to the stream when it is ready,
as the ``user`` stream does with notifications. It is sent only while that message is the conversation's last the
person may see: a message hidden from them (a block since) or overtaken by a newer one sends nothing of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async

from api.entities.conversations import conversation
from api.stream_transport import SSE, Transport
from api.streaming import NOTIFICATION, Origin, Prepared, UserStream
from socialsite.redis_client import UNAVAILABLE_ERRORS
from timelines import events as timeline_events
from timelines import exceptions, selectors


def _conversation_event(
    uid: int, origin: Origin, conversation_id: int, status_id: int | None, transport: Transport
) -> Any:
    """The ``conversation`` event for a new message (``status_id``) or a conversation just read (None), or
    nothing (see the module docstring)."""
    try:
        summary = selectors.get_conversation_summary(uid=uid, conversation_id=conversation_id)
    except exceptions.ConversationNotFound:
        return b""
    if status_id is not None and (summary.last is None or summary.last.status.id != status_id):
        return b""
    shaped = conversation(origin, summary)  # type: ignore[arg-type]
    return transport.frame("conversation", json.dumps(shaped, separators=(",", ":")))


@dataclass
class DirectEncoder:
    uid: int
    origin: Origin
    transport: Transport = SSE
    keepalive: bytes = b":thump\n"
    subscription: Any = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def attach(self, subscription: Any) -> None:
        self.subscription = subscription

    def _announce(self, conversation_id: int, status_id: int | None) -> None:
        if self.subscription is None:
            return

        async def relay() -> None:
            read = sync_to_async(_conversation_event, thread_sensitive=False)
            with contextlib.suppress(*UNAVAILABLE_ERRORS):
                data = await read(self.uid, self.origin, conversation_id, status_id, self.transport)
                if data:
                    self.subscription.offer(Prepared(data))
                    self.subscription.hub.flush()

        task = asyncio.ensure_future(relay())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def event(self, item: dict[str, Any]) -> Any:
        kind = getattr(item, "type", None)
        try:
            if kind == NOTIFICATION:
                return item["data"]
            edited = kind == timeline_events.MESSAGE_UPDATED
            if (kind == timeline_events.MESSAGE_CREATED or edited) and int(item["uid"]) == self.uid:
                self._announce(int(item["conversation"]), int(item["status"]["id"]))
            elif kind == timeline_events.MESSAGES_CHANGED and item.get("removed") is not None:
                return self.transport.frame("delete", str(int(item["removed"])))
            elif kind == timeline_events.MESSAGES_CHANGED and item.get("read") is not None:
                self._announce(int(item["read"]), None)
        except (KeyError, TypeError, ValueError):
            return b""
        return b""

    def disconnect(self, reason: str) -> bytes:
        return f":{reason}\n".encode()


direct_stream = UserStream(posts=False, encoder=DirectEncoder)

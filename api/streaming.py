"""Mastodon's streaming API for the client API, as server-sent events: ``GET /api/v1/streaming/user`` (what
reaches the token's person's home, and their notifications, as it happens), ``/user/notification`` (the
notifications alone) and ``/api/v1/streaming/health``.

The ``user`` stream is the site's live home (``streaming.live.LivePage``) with Mastodon's framing: the same hub
subscription to what the delivery wrote to the person's home (``timeline.delivery`` events) and the same flow
control, so what an app sees is what the person's open home page gets (a bulk change, such as a follow's copy,
is not replayed: Mastodon's stream has no event for it). Events: ``event: update`` with a Status as JSON,
``event: status.update`` with the Status again after an edit (``edited_at`` set), ``event: delete`` with the id,
``event: notification`` with a Notification (read when the hub announces one, off the event loop);
``:thump`` keep-alives. The token comes from ``Authorization: Bearer`` or ``?access_token=``, and needs
``read:statuses``; a suspension ends the stream at once, as it ends the person's live pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async

from api import oauth
from api import scopes as scope_rules
from api.entities.notifications import notifications as notifications_entity
from api.entities.statuses import streamed_status
from api.errors import INVALID_TOKEN
from api.stream_flags import InOrder, needs_flags
from api.stream_transport import SSE, Transport
from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming import events, places
from streaming.flow import RAW_SEND
from streaming.live import TOO_MANY_FROM_ADDRESS, LivePage, entry_of
from streaming.writer import send_json
from timelines import events as timeline_events
from timelines import exceptions, selectors

logger = logging.getLogger(__name__)

OPENING = b":)\n"
SSE_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache, no-store"),
    (b"x-accel-buffering", b"no"),
    (b"access-control-allow-origin", b"*"),
]


@dataclass
class Origin:
    """Stands in for a request where the entities make absolute URLs: a stream has its scope only (and the
    token's person, whose flags a notification's status carries)."""

    base: str
    viewer_uid: int | None = None

    def build_absolute_uri(self, path: str) -> str:
        return self.base + path


NOTIFICATION = "api.notification"
# Notifications looked at when one is announced: a burst of several is sent whole.
NOTIFICATIONS_READ = 10


class Prepared(dict[str, Any]):
    """An event this module made itself (a notification as Mastodon's JSON), offered to the stream's own
    subscription: its bytes are ready."""

    __slots__ = ("type",)

    def __init__(self, data: bytes) -> None:
        super().__init__(data=data)
        self.type = NOTIFICATION


def _new_notifications(uid: int, origin: Origin, since: float, sent: set[int], transport: Transport) -> list[Any]:
    """The person's notifications made since the stream opened and not sent yet, oldest first, framed for
    ``transport`` (read and shaped in a thread: a stream must not wait on a read)."""
    items = [
        item
        for item in selectors.get_notifications(uid=uid, count=NOTIFICATIONS_READ)
        if item.time >= since and item.id not in sent
    ]
    shaped = notifications_entity(origin, list(reversed(items)))  # type: ignore[arg-type]
    sent.update(item.id for item in items)
    return [transport.frame("notification", json.dumps(body, separators=(",", ":"))) for body in shaped]


@dataclass
class MastodonEncoder:
    """A hub event as the Mastodon event one person's stream sends (``event``), framed by the stream's
    ``transport``: statuses as Mastodon's JSON, each shaped once per event and shared by every stream of the
    process (framed once per transport key)."""

    uid: int
    origin: Origin
    keepalive: bytes = b":thump\n"
    suspended: set[int] = field(default_factory=set)
    notifications: bool = False  # the user stream sends them; the public ones have none
    opened: float = field(default_factory=time.time)
    sent: set[int] = field(default_factory=set)
    subscription: Any = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    in_order: InOrder | None = None
    transport: Transport = SSE
    _keys: dict[str, str] = field(default_factory=dict)  # the cache keys of this stream's frames, by event name

    def __post_init__(self) -> None:
        if self.uid:
            # The person's own flags on reposts and edits (api.stream_flags); an anonymous stream has none.
            self.in_order = InOrder(self.uid, self.origin, self.transport.frame, Prepared)

    def attach(self, subscription: Any) -> None:
        self.subscription = subscription
        if self.in_order is not None:
            self.in_order.subscription = subscription

    def _after_waiting(self, data: bytes) -> bytes:
        """``data`` now, or after the statuses still waiting for their flags (the stream keeps its order)."""
        if data and self.in_order is not None and self.in_order.busy():
            return self.in_order.hold(data)
        return data

    def _announce(self) -> None:
        """A notification was made for the person: read it off the event loop, then offer it to the stream."""
        if self.subscription is None:
            return

        async def relay() -> None:
            read = sync_to_async(_new_notifications, thread_sensitive=False)
            with contextlib.suppress(*UNAVAILABLE_ERRORS):
                for data in await read(self.uid, self.origin, self.opened - 1, self.sent, self.transport):
                    self.subscription.offer(Prepared(data))
                self.subscription.hub.flush()

        task = asyncio.ensure_future(relay())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def event(self, item: dict[str, Any]) -> Any:
        """The frame of ``item`` for this stream, or ``b""`` to send nothing (now: a status waiting for the
        person's flags, and a notification being read, come back as ``Prepared`` events)."""
        kind = getattr(item, "type", timeline_events.STATUS_CREATED)
        try:
            if kind == NOTIFICATION:
                return item["data"]
            if kind == timeline_events.USER_SUSPENDED:
                self.suspended.add(int(item["uid"]))
                return b""
            if kind == timeline_events.USER_UNSUSPENDED:
                # The suspension ended: the account's later posts reach the stream again (as on live pages).
                self.suspended.discard(int(item["uid"]))
                return b""
            if kind == timeline_events.NOTIFICATION_CREATED and self.notifications:
                self._announce()
                return b""
            if events.is_delivery(item):
                # The ``user`` stream: what the delivery wrote to the person's home.
                if item.kind == timeline_events.DELETE:
                    return self._after_waiting(self._deletion(item))
                if item.kind != timeline_events.POST:
                    return b""  # a reset: Mastodon's stream has no such event
                name = "update"
            elif events.is_status(item):
                # The statuses themselves: the public streams (``api.public_streams``), and on the user stream the
                # deletions and the edits of what it was sent (``streaming.live``).
                if events.is_deletion(item):
                    return self._after_waiting(self._deletion(item))
                # An edit is Mastodon's ``status.update``: the status again, with ``edited_at``.
                edited = getattr(item, "type", None) == timeline_events.STATUS_UPDATED
                name = "status.update" if edited else "update"
            else:
                return b""  # notices of other kinds, and a page's snapshots
            if int(item["uid"]) in self.suspended:
                return b""
            if self.in_order is not None and needs_flags(item, name):
                return self.in_order.hold((item, name))
            return self._after_waiting(self._update(item, name))
        except (KeyError, TypeError, ValueError):
            logger.warning("Skipped a malformed stream event %s.", item.get("id"))
            return b""

    def _update(self, item: dict[str, Any], name: str) -> Any:
        cache = getattr(item, "cache", None)
        if cache is None:
            return self._frame_status(item, name)
        # The status's JSON once per event and origin; its frame once per transport (SSE, each WebSocket stream).
        # The key is a string made once per stream and name: a string keeps its hash, a tuple hashes each time.
        key = self._keys.get(name)
        if key is None:
            key = self._keys[name] = repr(("mastodon", self.origin.base, name, self.transport.key))
        if key not in cache:
            cache[key] = self._frame_status(item, name)
        return cache[key]

    def _frame_status(self, item: dict[str, Any], name: str) -> Any:
        cache = getattr(item, "cache", None)
        key = ("mastodon", self.origin.base)
        if cache is not None and key in cache:
            text = cache[key]
        else:
            shaped = streamed_status(self.origin, entry_of(item))  # type: ignore[arg-type]
            text = json.dumps(shaped, separators=(",", ":")) if shaped is not None else None
            if cache is not None:
                cache[key] = text
        return self.transport.frame(name, text) if text is not None else b""

    def _deletion(self, item: dict[str, Any]) -> Any:
        cache = getattr(item, "cache", None)
        key = ("mastodon.delete", self.transport.key)
        if cache is not None and key in cache:
            return cache[key]
        data = self.transport.frame("delete", str(int(item["id"])))
        if cache is not None:
            cache[key] = data
        return data

    def disconnect(self, reason: str) -> bytes:
        return f":{reason}\n".encode()


def header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return ""


def token_text(scope: dict[str, Any]) -> str | None:
    given = header(scope, b"authorization")
    if given:
        kind, _, value = given.partition(" ")
        return value.strip() if kind.lower() == "bearer" else ""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = query.get("access_token")
    return values[0] if values else None


def viewer(raw: str) -> tuple[int | None, str]:
    """The uid the token acts for, or None and why not (checked off the event loop: SQL and Redis)."""
    token = oauth.find_token(raw)
    if token is None or token.user is None or not token.user.is_active or token.user.uid is None:
        return None, INVALID_TOKEN
    if not scope_rules.grants(token.scope_list, "read:statuses"):
        return None, "This action is outside the authorized scopes"
    try:
        if selectors.get_user_suspended(uid=token.user.uid):
            return None, "Your login is currently disabled"
    except exceptions.UnknownUser:
        return None, INVALID_TOKEN
    return int(token.user.uid), ""


async def take_place(scope: dict[str, Any], send: Any) -> places.Places | None:
    """A place of the client's address for a new stream, as the live pages take one (the cap holds across the
    site's streams and processes), or None once the refusal is answered."""
    try:
        return await places.take(scope)
    except UNAVAILABLE_ERRORS:
        await send_json(send, 503, {"error": "The stream is unavailable right now"}, [(b"retry-after", b"5")])
    except places.TooManyFromAddress:
        await send_json(send, 429, {"error": TOO_MANY_FROM_ADDRESS.strip()}, [(b"retry-after", b"60")])
    return None


def _user_encoder(uid: int, origin: Origin, transport: Transport) -> Any:
    return MastodonEncoder(uid, origin, notifications=True, transport=transport)


class UserStream(LivePage):
    """``GET /api/v1/streaming/user`` (home and notifications), and with ``posts=False``
    ``/api/v1/streaming/user/notification`` (notifications only). ``encoder`` makes the stream's encoder for its
    person, origin and transport: another framing of the same person's notices (``api.direct_stream``). A
    WebSocket subscription runs it with its own ``transport`` (``api.websocket_streams``)."""

    def __init__(self, *, posts: bool = True, encoder: Callable[[int, Origin, Transport], Any] = _user_encoder) -> None:
        super().__init__(posts=posts)
        self.make_encoder = encoder

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any, transport: Transport = SSE) -> None:
        if scope["type"] != "http":
            return
        if scope["method"] not in ("GET", "HEAD"):
            await send_json(send, 405, {"error": "Method not allowed"}, [(b"allow", b"GET, HEAD")])
            return
        raw = token_text(scope)
        if not raw:
            await send_json(send, 401, {"error": INVALID_TOKEN})
            return
        try:
            uid, refusal = await sync_to_async(viewer, thread_sensitive=False)(raw)
        except UNAVAILABLE_ERRORS:
            await send_json(send, 503, {"error": "The stream is unavailable right now"})
            return
        if uid is None:
            await send_json(send, 401 if refusal == INVALID_TOKEN else 403, {"error": refusal})
            return
        if scope["method"] == "HEAD":
            await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
            await send({"type": "http.response.body", "body": b""})
            return
        host = header(scope, b"host") or "localhost"
        origin = Origin(f"{scope.get('scheme', 'http')}://{host}", uid)
        taken = await take_place(scope, send)
        if taken is None:
            return
        try:
            await self.stream(
                uid,
                0,
                receive,
                send,
                scope.get(RAW_SEND),
                taken=taken,
                encoder=self.make_encoder(uid, origin, transport),
                opening=OPENING,
                serve=transport.serve,
            )
        finally:
            await taken.release()


async def health(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``GET /api/v1/streaming/health``: the streaming server answers (Mastodon's plain ``OK``)."""
    if scope["type"] != "http":
        return
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain; charset=utf-8")]}
    )
    await send({"type": "http.response.body", "body": b"OK"})


user_stream = UserStream()
notification_stream = UserStream(posts=False)

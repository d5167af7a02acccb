"""Live home timelines: a server-sent-events stream of what a logged-in viewer's home page should show.

``GET /live/home?since_id=N`` answers ``text/event-stream``; ``static/js/site.js`` opens it on the newest page
of home and applies each event:

- ``event: post``, ``id: <status id>``, ``data: {"id": ..., "html": "<article ...>"}``: a new post by the viewer
  or someone they follow, rendered with the same partial as the page;
- ``event: delete``, ``data: {"id": ...}``: one of those posts was deleted;
- a ``: keep-alive`` comment when idle, so proxies keep the connection and a vanished client is noticed.

No gap between the page and the stream: the consumer subscribes first, then sends the home timeline's statuses
newer than ``since_id`` (the newest id on the page, or the browser's ``Last-Event-ID`` after a reconnect), then
streams; the browser ignores ids it already shows. Events come from the process's one shared subscription
(``streaming.hub``), indexed by the authors the viewer follows plus the viewer. The followed set is re-read
every ``FOLLOWING_REFRESH_SECONDS`` so a follow made in another tab starts flowing without a reload. A viewer
who falls behind is cut off by the hub; the stream then ends, and the browser reconnects and catches up from
its ``Last-Event-ID``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.generic.http import AsyncHttpConsumer
from django.template.loader import render_to_string

from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming import matching
from streaming.hub import Disconnect, Hub, Subscription, get_hub
from timelines import limits, policy, selectors, validation
from timelines.records import status_from_hash

logger = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 15.0
FOLLOWING_REFRESH_SECONDS = 10.0
# A viewer following more people than this gets live posts from the most recently followed ones only.
MAX_LIVE_AUTHORS = 5000
# Catch-up after connecting or reconnecting: at most one page; the page itself shows anything older.
BACKFILL_COUNT = limits.DEFAULT_PAGE_SIZE
QUEUE_SIZE = 200
RETRY_MILLISECONDS = 3000

SSE_HEADERS = [
    (b"Content-Type", b"text/event-stream; charset=utf-8"),
    (b"Cache-Control", b"no-cache, no-store"),
    # nginx and similar proxies buffer responses unless told otherwise, which would hold events back.
    (b"X-Accel-Buffering", b"no"),
]


def sse(event: str, data: dict[str, Any], *, event_id: int | None = None) -> bytes:
    """One server-sent event. JSON keeps ``data`` on one line, whatever the post contains."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def render_post(status: dict[str, Any], *, viewer_uid: int) -> bytes:
    html = render_to_string(
        "timelines/_status.html", {"status": status, "viewer_uid": viewer_uid, "current_path": "/", "fresh": True}
    )
    return sse("post", {"id": status["id"], "html": html}, event_id=int(status["id"]))


class HomeTimelineConsumer(AsyncHttpConsumer):
    """One open home page of one viewer. See the module docstring for the protocol."""

    keepalive_seconds = KEEPALIVE_SECONDS
    refresh_seconds = FOLLOWING_REFRESH_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stream_task: asyncio.Task[None] | None = None
        self.policy_state: Any = None

    async def http_request(self, message: dict[str, Any]) -> None:
        # Channels' AsyncHttpConsumer stops the consumer as soon as handle() returns, and while handle() runs it
        # cannot see http.disconnect. A stream outlives this message, so it runs as a task that http_disconnect
        # cancels.
        if "body" in message:
            self.body.append(message["body"])
        if not message.get("more_body"):
            self.stream_task = asyncio.get_running_loop().create_task(self.handle(b"".join(self.body)))

    async def http_disconnect(self, message: dict[str, Any]) -> None:
        if self.stream_task is not None:
            self.stream_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.stream_task
        await super().http_disconnect(message)

    async def handle(self, body: bytes) -> None:
        try:
            await self.stream()
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Live home timeline failed")
            with contextlib.suppress(Exception):
                await self.send_body(b"", more_body=False)

    async def plain(self, status: int, text: str) -> None:
        await self.send_response(status, text.encode(), headers=[(b"Content-Type", b"text/plain; charset=utf-8")])

    def since_id(self) -> int:
        """The newest status id the browser already has: the page's, or ``Last-Event-ID`` after a reconnect."""
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        values = [*query.get("since_id", [])]
        for name, value in self.scope.get("headers", []):
            if name == b"last-event-id":
                values.append(value.decode("latin-1"))
        newest = 0
        for value in values:
            if value == "":
                continue
            newest = max(newest, validation.parse_int(value, minimum=0))
        return newest

    async def stream(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.plain(403, "Log in to follow your home timeline live.\n")
            return
        try:
            since_id = self.since_id()
        except ValueError:
            await self.plain(400, "since_id must be a positive whole number.\n")
            return
        try:
            uid = user.uid
            if uid is None:
                await self.plain(403, "This account has no social profile yet; log in again.\n")
                return
            authors = await self.authors(uid)
            self.policy_state = await policy.get_policy().aload(recipients=(uid,), authors=authors)
        except UNAVAILABLE_ERRORS:
            await self.plain(503, "The timeline store is not answering right now.\n")
            return

        await self.send_headers(headers=SSE_HEADERS)
        hub = get_hub()
        subscription = self.subscribe(hub, authors, uid)
        pending_get: asyncio.Task[Any] | None = None
        try:
            await self.send_body(f"retry: {RETRY_MILLISECONDS}\n\n".encode(), more_body=True)
            for status in reversed(await self.backfill(uid, since_id)):  # oldest first: each goes on top
                await self.send_body(render_post(status, viewer_uid=uid), more_body=True)
            await self.send_body(b": live\n\n", more_body=True)
            loop = asyncio.get_running_loop()
            last_sent = loop.time()
            refresh_at = last_sent + self.refresh_seconds
            while True:
                if pending_get is None:
                    pending_get = loop.create_task(subscription.get())
                wake_at = min(last_sent + self.keepalive_seconds, refresh_at)
                done, _ = await asyncio.wait({pending_get}, timeout=max(0.0, wake_at - loop.time()))
                if pending_get in done:
                    item, pending_get = pending_get.result(), None
                    if isinstance(item, Disconnect):
                        break  # fell behind: end the stream; the browser reconnects and catches up
                    await self.send_body(self.encode(item, uid), more_body=True)
                    last_sent = loop.time()
                if loop.time() >= refresh_at:
                    refresh_at = loop.time() + self.refresh_seconds
                    fresh = await self.authors(uid, default=authors)
                    if fresh != authors:
                        authors = fresh
                        subscription, pending_get = await self.resubscribe(hub, subscription, pending_get, authors, uid)
                if loop.time() - last_sent >= self.keepalive_seconds:
                    await self.send_body(b": keep-alive\n\n", more_body=True)
                    last_sent = loop.time()
        finally:
            if pending_get is not None:
                pending_get.cancel()
            subscription.close()
        await self.send_body(b"", more_body=False)

    async def authors(self, uid: int, default: frozenset[int] | None = None) -> frozenset[int]:
        """The viewer and the people they follow. With ``default``, a Redis outage returns it instead of raising
        (a stream already open keeps going; the hub reconnects by itself)."""
        try:
            following = await sync_to_async(selectors.get_following_ids, thread_sensitive=False)(
                uid=uid, limit=MAX_LIVE_AUTHORS
            )
        except UNAVAILABLE_ERRORS:
            if default is None:
                raise
            return default
        return frozenset([uid, *following])

    async def backfill(self, uid: int, since_id: int) -> list[dict[str, object]]:
        try:
            return await sync_to_async(selectors.get_status_messages, thread_sensitive=False)(
                uid=uid, timeline="home", since_id=since_id or None, count=BACKFILL_COUNT
            )
        except UNAVAILABLE_ERRORS:
            return []

    def subscribe(self, hub: Hub, authors: frozenset[int], uid: int) -> Subscription:
        chooser = policy.get_policy()

        def matches(event: dict[str, Any]) -> bool:
            # The viewer's own decision, not the public's: public=False below.
            return int(event.get("uid", 0)) in authors and chooser.allows(
                self.policy_state, recipient=uid, item=policy.Item.of_status(event)
            )

        return hub.subscribe(
            index_keys={matching.author_key(author) for author in authors},
            matches=matches,
            maxsize=QUEUE_SIZE,
            public=False,
        )

    async def resubscribe(
        self,
        hub: Hub,
        old: Subscription,
        pending_get: asyncio.Task[Any] | None,
        authors: frozenset[int],
        uid: int,
    ) -> tuple[Subscription, None]:
        """Swap to a subscription for the new set of authors without losing what the old one still holds.

        The new one is registered first, so an event published meanwhile reaches at least one of them; one that
        reaches both is sent twice, which the browser ignores (it keys posts by id).
        """
        new = self.subscribe(hub, authors, uid)
        held: list[Any] = []
        if pending_get is not None:
            if not pending_get.done():
                # Cancelling Queue.get() loses nothing: an item is only taken off the queue when get() returns.
                pending_get.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pending_get
            if pending_get.done() and not pending_get.cancelled():
                held.append(pending_get.result())
        while not old.queue.empty():
            held.append(old.queue.get_nowait())
        old.close()
        for item in held:
            if not isinstance(item, Disconnect):
                await self.send_body(self.encode(item, uid), more_body=True)
        return new, None

    @staticmethod
    def encode(event: dict[str, Any], uid: int) -> bytes:
        """The SSE bytes for one hub event; nothing for an event this page cannot show."""
        try:
            if event.get("deleted"):
                return sse("delete", {"id": int(event["id"])})
            return render_post(status_from_hash(event), viewer_uid=uid)
        except (KeyError, TypeError, ValueError):
            # Its type and id only: the event may hold a private post's text (nothing private in a log line).
            logger.warning("Skipped a malformed stream event (type %r, id %r).", event.get("type"), event.get("id"))
            return b""

"""Live pages: a server-sent-events stream of what a logged-in viewer's open pages should show.

``GET /live/home?since_id=N`` (the newest page of home) and ``GET /live/me`` (every other page) answer
``text/event-stream``; ``static/js/site.js`` applies each event:

- ``event: post``, ``id: <entry id>``, ``data: {"id": ..., "html": "<article ...>"}``: a new post (or repost)
  by the viewer or someone they follow, rendered with the same partial as the page (home only);
- ``event: delete``, ``data: {"id": ...}``: one of those was deleted (home only);
- ``event: update``, ``data: {"id": <status id>, "html": "<article ...>"}``: one of those was edited (home
  only; the same viewers as ``delete``, asked the same policy): the page swaps the post's text and "Edited" in
  wherever it shows it;
- ``event: suspend``, ``data: {"uid": ...}``: the moderators suspended an account; its posts leave the page;
- ``event: notifications``, ``data: {"unread": n}``: the viewer's unread notification count, for the header;
- ``event: messages``, ``data: {"unread": n}``: the viewer's number of unread conversations, for the header;
- ``event: message``, ``data: {"id": ..., "html": "<article ...>"}``: a new direct message in the conversation
  the page shows (``?conversation=<id>``; the events are the viewer's own, so no other conversation can be
  asked for), and ``event: unmessage``, ``data: {"id": ...}``: one of its messages was deleted;
- ``event: reload``, ``data: {"reason": ...}``: the viewer fell behind and the server closes the stream; the
  browser reconnects and catches up from its ``Last-Event-ID``;
- a ``: keep-alive`` comment after ``STREAMING_KEEPALIVE_SECONDS`` idle (the API's setting), so proxies keep
  the connection and a vanished client is noticed.

No gap between the page and the stream: the stream subscribes first, then sends the home timeline's entries
newer than ``since_id`` (the newest on the page, or the browser's ``Last-Event-ID`` after a reconnect), then
streams; the browser ignores ids it already shows. It is served like the streaming API, by
``streaming.writer`` (one flow-controlled writer, one hub subscription per process, bounded queues, the same
settings): a browser that stops reading is cut off, and the server's memory stays bounded. The subscription is
``public=False`` and asks the per-recipient policy (``timelines.policy``) for its viewer; whom the viewer
follows (and what the policy knows about them) is re-read at once when an event says the viewer's relations
changed (a follow, an unfollow, a block, a mute or their undoing: ``relations.changed``), and about every
``refresh_seconds`` (jittered) in case an event was missed; posts of an account suspended meanwhile are
dropped at once (``suspend``). A post's HTML is rendered once per event and shared by
every viewer of the process (at most twice: for its author, who gets a Delete button, and for everyone else).

A live page holds one of its client address's places while it is open (``streaming.places``: at most
``STREAMING_MAX_CONNECTIONS_PER_ADDRESS`` live pages and API streams per address); one more is answered 429.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from django.conf import settings
from django.template.loader import render_to_string

from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming import events, matching, places, writer
from streaming.flow import RAW_SEND
from streaming.hub import get_hub
from timelines import events as timeline_events
from timelines import limits, policy, selectors, validation
from timelines.records import Author, Status, TimelineEntry

logger = logging.getLogger(__name__)

# A viewer following more people than this gets live posts from the most recently followed ones only.
MAX_LIVE_AUTHORS = 5000
# Catch-up after connecting or reconnecting: at most one page; the page itself shows anything older.
BACKFILL_COUNT = limits.DEFAULT_PAGE_SIZE
RETRY_MILLISECONDS = 3000
# Posts held back while a viewer's relations are read again (a burst by someone just followed): beyond this, the
# page's next reload shows them.
MAX_HELD = 200
# Why a viewer's own live page closes when the moderators suspend them.
SUSPENDED = "suspended"
TOO_MANY_FROM_ADDRESS = (
    "Too many live pages and streams are open from your address at once; close some tabs and reload this one.\n"
)

SSE_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache, no-store"),
    # nginx and similar proxies buffer responses unless told otherwise, which would hold events back.
    (b"x-accel-buffering", b"no"),
]


def sse(event: str, data: dict[str, Any], *, event_id: int | None = None) -> bytes:
    """One server-sent event. JSON keeps ``data`` on one line, whatever the post contains."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def entry_of(status: dict[str, Any]) -> TimelineEntry:
    """The timeline entry a status event shows: for a repost, the original with who reposted it."""
    original = status.get("repost_of")
    if isinstance(original, dict):
        by = Author(int(status["uid"]), str(status["login"]), str(status.get("name") or status["login"]))
        return TimelineEntry(Status.from_hash(original), by, int(status["id"]))
    return TimelineEntry(Status.from_hash(status))


def render_entry(entry: TimelineEntry, *, viewer_uid: int) -> bytes:
    html = render_to_string(
        "timelines/_status.html", {"status": entry, "viewer_uid": viewer_uid, "current_path": "/", "fresh": True}
    )
    return sse("post", {"id": entry.entry_id, "html": html}, event_id=entry.entry_id)


@dataclass
class LiveEncoder:
    """The SSE bytes of one viewer's live page. A post is rendered once per event and kept on it: the same
    bytes serve every viewer but its author (who also gets Delete).

    That sharing holds because ``_status.html`` depends on its viewer only through ``viewer_uid``: whether
    someone is logged in (Like and Repost) and whether they wrote the post (Delete). Every viewer of a live page
    is logged in, so two renders cover them all; a request-bound value such as a CSRF token is never rendered
    here (htmx sends the page's token in a header).
    """

    uid: int
    posts: bool = True
    keepalive: bytes = b": keep-alive\n\n"
    # The conversation the page shows (``/messages/<id>``), whose new messages it gets.
    conversation: int | None = None
    # Accounts suspended since the page opened: their posts still queued are not shown.
    suspended: set[int] = field(default_factory=set)

    def event(self, item: dict[str, Any]) -> bytes:
        kind = getattr(item, "type", timeline_events.STATUS_CREATED)
        try:
            if kind in timeline_events.NOTIFICATION_TYPES:
                return sse("notifications", {"unread": int(item["unread"])})
            if kind in timeline_events.MESSAGE_TYPES:
                return self._message(item)
            if kind == timeline_events.USER_SUSPENDED:
                self.suspended.add(int(item["uid"]))
                return sse("suspend", {"uid": int(item["uid"])}) if self.posts else b""
            if kind in timeline_events.USER_TYPES or not self.posts:
                return b""
            if events.is_deletion(item):
                return sse("delete", {"id": int(item["id"])})
            if int(item["uid"]) in self.suspended:
                return b""
            if kind == timeline_events.STATUS_UPDATED:
                return self._edited(item)
            return self._rendered(item)
        except (KeyError, TypeError, ValueError):
            logger.warning("Skipped a malformed stream event %s.", item.get("id"))
            return b""

    def _message(self, item: dict[str, Any]) -> bytes:
        """A direct message event (only ever the viewer's own: it is indexed for them alone): the header's count,
        and the message itself when the page shows its conversation."""
        chunk = sse("messages", {"unread": int(item["unread"])})
        if self.conversation is None:
            return chunk
        if item.get("removed") is not None:
            return chunk + sse("unmessage", {"id": int(item["removed"])})
        if item.get("conversation") != self.conversation or not isinstance(item.get("status"), dict):
            return chunk
        entry = TimelineEntry(Status.from_hash(item["status"]))
        html = render_to_string(
            "timelines/_status.html",
            {"status": entry, "viewer_uid": self.uid, "current_path": f"/messages/{self.conversation}", "fresh": True},
        )
        return sse("message", {"id": entry.entry_id, "html": html, "mine": entry.status.uid == self.uid}) + chunk

    def _rendered(self, item: dict[str, Any]) -> bytes:
        mine = int(item["uid"]) == self.uid
        cache = getattr(item, "cache", None)
        key = ("html", mine)
        if cache is not None and key in cache:
            return cache[key]
        # Rendered as this viewer, kept for every viewer who stands where they stand (author or not): the page of
        # any other logged-in follower is the same, and a viewer uid of 0 would render an anonymous reader's
        # page, without Like and Repost.
        rendered = render_entry(entry_of(item), viewer_uid=self.uid)
        if cache is not None:
            cache[key] = rendered
        return rendered

    def _edited(self, item: dict[str, Any]) -> bytes:
        """An edited post, rendered once per event for every viewer: the page takes only its text and its
        "Edited" line, which are the same for everyone (each viewer's buttons stay as the page has them)."""
        cache = getattr(item, "cache", None)
        if cache is not None and "edited" in cache:
            return cache["edited"]
        html = render_to_string(
            "timelines/_status.html", {"status": entry_of(item), "viewer_uid": self.uid, "current_path": "/"}
        )
        rendered = sse("update", {"id": int(item["id"]), "html": html})
        if cache is not None:
            cache["edited"] = rendered
        return rendered

    def disconnect(self, reason: str) -> bytes:
        return sse("reload", {"reason": reason})


class LivePage:
    """The ASGI application of ``/live/home`` (``posts=True``) and ``/live/me`` (notices only)."""

    # A safety net only: every change of whom a viewer follows, blocks or mutes publishes relations.changed, which
    # makes the page re-read at once. A thousand open pages re-reading every 10 s held up every stream's deliveries.
    refresh_seconds = 60.0

    def __init__(self, *, posts: bool) -> None:
        self.posts = posts

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        if scope["method"] not in ("GET", "HEAD"):
            await _plain(send, 405, "This stream is read with GET.\n", [(b"allow", b"GET, HEAD")])
            return
        user = scope.get("user")
        if user is None or not user.is_authenticated or getattr(user, "uid", None) is None:
            await _plain(send, 403, "Log in to follow your pages live.\n")
            return
        try:
            since_id = _since_id(scope)
            conversation = _conversation(scope)
        except ValueError:
            await _plain(send, 400, "since_id and conversation must be positive whole numbers.\n")
            return
        if scope["method"] == "HEAD":
            await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
            await send({"type": "http.response.body", "body": b""})
            return
        try:
            taken = await places.take(scope)
        except UNAVAILABLE_ERRORS:
            await _plain(send, 503, "The stream is unavailable right now.\n", [(b"retry-after", b"5")])
            return
        except places.TooManyFromAddress:
            await _plain(send, 429, TOO_MANY_FROM_ADDRESS, [(b"retry-after", b"60")])
            return
        try:
            await self.stream(
                int(user.uid), since_id, receive, send, scope.get(RAW_SEND), taken=taken, conversation=conversation
            )
        finally:
            await taken.release()

    async def stream(
        self,
        uid: int,
        since_id: int,
        receive: Any,
        send: Any,
        raw_send: Any = None,
        *,
        taken: places.Places | None = None,
        conversation: int | None = None,
        encoder: writer.Encoder | None = None,
        opening: bytes | None = None,
    ) -> None:
        """Stream ``uid``'s live events. ``encoder`` and ``opening`` (sent instead of the page's retry hint and
        catch-up) let another framing reuse the same subscription, policy and flow control: the client API's
        ``user`` stream (``api.streaming``)."""
        try:
            authors = await _authors(uid) if self.posts else frozenset()
            chooser = policy.get_policy()
            state = await chooser.aload(recipients=(uid,), authors=await _judged(uid, authors))
        except UNAVAILABLE_ERRORS:
            await _plain(send, 503, "The timeline store is not answering right now.\n")
            return
        holder = {"authors": authors, "state": state}
        encoder = encoder or LiveEncoder(uid, self.posts, conversation=conversation)
        # People whose relations with the viewer just changed (relations.changed): their posts are held back
        # until the state is read again, which ``stale`` asks for at once, and then judged on the new state (a
        # follow's first posts are shown, a block's are not).
        pending: set[int] = set()
        held: list[dict[str, Any]] = []
        stale = asyncio.Event()

        def matches(event: dict[str, Any]) -> bool:
            if not events.is_status(event):
                if _viewer_suspended(event, uid):
                    subscription.cut_off(SUSPENDED)
                    return False
                if getattr(event, "type", None) in timeline_events.RELATION_TYPES:
                    pending.add(int(event["other"]))
                    stale.set()
                    return False
                return True  # notices are indexed for this viewer (or for moderation) only
            if int(event.get("uid", 0)) not in holder["authors"]:
                return False
            if pending and {int(event["uid"]), int(event.get("repost_of_uid") or 0)} & pending:
                if len(held) < MAX_HELD:
                    held.append(event)
                return False
            # The viewer's own decision, not the public's: the subscription is public=False.
            return chooser.allows(holder["state"], recipient=uid, item=_feed_item(event))

        hub = get_hub()
        subscription = hub.subscribe(
            index_keys=_index_keys(uid, authors),
            matches=matches,
            maxsize=settings.STREAMING_QUEUE_SIZE,
            public=False,
        )
        attach = getattr(encoder, "attach", None)
        if attach is not None:
            # An encoder that adds events of its own (the client API's notifications) offers them here.
            attach(subscription)

        async def preamble() -> list[bytes]:
            if opening is not None:
                return [opening]
            chunks = [f"retry: {RETRY_MILLISECONDS}\n\n".encode()]
            if self.posts:
                chunks.extend(await _backfill(uid, since_id))
            chunks.append(b": live\n\n")
            return chunks

        async def refresh() -> None:
            # Re-read whom the viewer follows and what the policy knows about them (a follow made in another
            # tab starts flowing without a reload), at once when a block, mute or unfollow was just written.
            while True:
                # A timeout spread over half to one and a half times the period: pages opened together (a mass
                # reconnect after a restart or a cut-off) would otherwise all re-read at the same moments, stalling
                # the process's streams each time.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stale.wait(), self.refresh_seconds * random.uniform(0.5, 1.5))
                stale.clear()
                if not self.posts:
                    continue
                changed = set(pending)
                with contextlib.suppress(*UNAVAILABLE_ERRORS):
                    fresh = await _authors(uid)
                    holder["state"] = await chooser.aload(recipients=(uid,), authors=await _judged(uid, fresh))
                    if fresh != holder["authors"]:
                        holder["authors"] = fresh
                        hub.reindex(subscription, _index_keys(uid, fresh))
                    pending.difference_update(changed)
                    # What arrived meanwhile, in order, judged again (held once more if still pending).
                    waiting = held[:]
                    held.clear()
                    for event in waiting:
                        subscription.offer(event)
                    if waiting:
                        hub.flush()  # what a sink took outside the hub's own pass

        async def alongside() -> None:
            # One group, so a failure of either ends the other too: no renewal outlives its page.
            async with asyncio.TaskGroup() as group:
                group.create_task(refresh())
                if taken is not None:
                    group.create_task(taken.keep())

        await writer.serve(
            send,
            receive,
            hub=hub,
            subscription=subscription,
            encoder=encoder,
            headers=SSE_HEADERS,
            preamble=preamble,
            unavailable=lambda: _plain(send, 503, "The stream is unavailable right now.\n"),
            extra=alongside,
            raw_send=raw_send,
        )


def _viewer_suspended(event: dict[str, Any], uid: int) -> bool:
    """Whether ``event`` suspends the viewer themselves: their live page closes at once (the ``reload`` it gets
    finds their session ended, so the browser does not come back)."""
    return getattr(event, "type", None) == timeline_events.USER_SUSPENDED and str(event.get("uid")) == str(uid)


def _feed_item(event: dict[str, Any]) -> policy.Item:
    """What the policy is asked about for every viewer of ``event``: made once per event (a ``StreamEvent``
    keeps it), not once per live home."""
    cache = getattr(event, "cache", None)
    if cache is None:
        return policy.Item.of_status(event)
    item = cache.get("feed_item")
    if item is None:
        item = cache["feed_item"] = policy.Item.of_status(event)
    return item


def _index_keys(uid: int, authors: frozenset[int]) -> set[str]:
    return {
        *(matching.author_key(author) for author in authors),
        matching.user_key(uid),
        matching.MODERATION,
    }


def _since_id(scope: dict[str, Any]) -> int:
    """The newest entry id the browser already has: the page's, or ``Last-Event-ID`` after a reconnect."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = [*query.get("since_id", [])]
    for name, value in scope.get("headers", []):
        if name == b"last-event-id":
            values.append(value.decode("latin-1"))
    return max([0, *(validation.parse_int(value, minimum=0) for value in values if value != "")])


def _conversation(scope: dict[str, Any]) -> int | None:
    """The conversation a ``/messages/<id>`` page shows (``?conversation=<id>``), None for any other page."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = query.get("conversation", [])
    if not values or values[-1] == "":
        return None
    return validation.parse_int(values[-1], minimum=1)


async def _authors(uid: int) -> frozenset[int]:
    """The viewer and the people they follow (off the event loop)."""
    following = await sync_to_async(selectors.get_following_ids, thread_sensitive=False)(
        uid=uid, limit=MAX_LIVE_AUTHORS
    )
    return frozenset([uid, *following])


async def _judged(uid: int, authors: frozenset[int]) -> frozenset[int]:
    """The authors whose relations with the viewer the policy loads: those followed, and whoever the viewer
    blocks, is blocked by or mutes, since a followed person's repost carries anyone's post (off the event
    loop)."""
    if not authors:
        return authors
    related = await sync_to_async(selectors.get_related_ids, thread_sensitive=False)(uid=uid)
    return authors | related


def _catch_up(uid: int, since_id: int) -> list[bytes]:
    """The ``post`` events of the home timeline's entries newer than ``since_id``, oldest first (each goes on
    top). Rendered here, for this viewer (what they liked or reposted shows), in the thread that read them:
    a page of renders on the event loop would hold every stream of the process, and a cut-off makes many
    pages reconnect at once."""
    entries = selectors.get_status_messages(uid=uid, timeline="home", since_id=since_id or None, count=BACKFILL_COUNT)
    return [render_entry(entry, viewer_uid=uid) for entry in reversed(entries)]


async def _backfill(uid: int, since_id: int) -> list[bytes]:
    try:
        return await sync_to_async(_catch_up, thread_sensitive=False)(uid, since_id)
    except UNAVAILABLE_ERRORS:
        return []


async def _plain(send: Any, status: int, text: str, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), *(headers or [])],
        }
    )
    await send({"type": "http.response.body", "body": body})


live_home = LivePage(posts=True)
live_me = LivePage(posts=False)

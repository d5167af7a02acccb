"""Live pages: a server-sent-events stream of what a logged-in viewer's open pages should show.

``GET /live/home?since_id=N`` (the newest page of home), ``GET /live/list?list=<id>&since_id=N`` (the newest page
of a list the viewer owns) and ``GET /live/me`` (every other page) answer ``text/event-stream``;
``static/js/site.js`` applies each event:

- ``event: post``, ``id: <entry id>``, ``data: {"id": ..., "html": "<article ...>"}``: an entry the delivery
  wrote to this page's timeline (home or list), rendered with the same partial as the page;
- ``event: delete``, ``data: {"id": ...}``: an entry withdrawn from it, or a deleted status (every page drops it at
  once, and the reposts showing it, as a reload would);
- ``event: update``, ``data: {"id": <status id>, "html": "<article ...>"}``: a post the page was sent was edited
  (``status.updated``): the page swaps its text and "Edited" in wherever it shows it;
- ``event: timeline``, ``data: {"entries": [{"id": ..., "html": ...}, ...], "complete": bool}``: the timeline's
  first page as a reload shows it, after many of its entries changed at once (a follow, an unfollow, a block, a
  mute, a list's members, a refill, the end of a suspension) or after a resync; the page takes it for its own;
- ``event: thread``, the same for the conversation a page shows, after a resync or a block;
- ``event: suspend``, ``data: {"uid": ...}``: the moderators suspended an account; its posts leave the page;
- ``event: notifications``, ``data: {"unread": n}``: the viewer's unread notification count, for the header;
- ``event: messages``, ``data: {"unread": n}``: the viewer's number of unread conversations, for the header;
- ``event: message``, ``data: {"id": ..., "html": "<article ...>"}``: a new direct message in the conversation
  the page shows (``?conversation=<id>``; the events are the viewer's own, so no other conversation can be
  asked for), and ``event: unmessage``, ``data: {"id": ...}``: one of its messages was deleted;
- ``event: edited``, ``data: {"id": ..., "conversation": ..., "html": ...}``: one of the viewer's direct messages
  was edited (``message.updated``; the HTML only on the page of its conversation, which swaps it in);
- ``event: reload``, ``data: {"reason": ...}``: the viewer fell behind and the server closes the stream; the
  browser reconnects with ``?resync=1``;
- a ``: keep-alive`` comment after ``STREAMING_KEEPALIVE_SECONDS`` idle (the API's setting), so proxies keep
  the connection and a vanished client is noticed.

**The page follows the delivery, it decides nothing.** Its subscription is indexed under its timeline
(``keys.channels.hub_home`` / ``hub_list``) and receives the ``timeline.delivery`` events that name it: the delivery
pipeline (``timelines.services.delivery``) already asked the per-recipient policy for this timeline's reader when
it wrote, so an open page gets exactly the entries written to its timeline and loses exactly those withdrawn from
it. Where a change rewrote many entries at once (a ``reset`` event, or ``relations.changed`` for its viewer: the
policy's answer for what the timeline already holds may have changed), the page's timeline is read again the way
a reload reads it (``selectors``), events arriving meanwhile held back and sent after it, so the page equals its
reload. There are no follow sets per viewer and no cap on whom they follow.

**Resyncs** (``streaming.live_reads``): a browser that reconnects (``?resync=1``, or ``Last-Event-ID``) may have
missed anything, so instead of a catch-up it gets its content as a reload shows it (``timeline`` or ``thread``, and
the counts); so does every open page when the process's hub subscribed to Redis again after losing it
(``Subscription.on_resync``).

No gap between the page and the stream: the stream subscribes first, then sends the timeline's entries newer
than ``since_id`` (the newest on the page, or the browser's ``Last-Event-ID`` after a reconnect), then streams;
the browser ignores ids it already shows. It is served like the streaming API, by ``streaming.writer`` (one
flow-controlled writer, one hub subscription per process, bounded queues, the same settings): a browser that
stops reading is cut off, and the server's memory stays bounded. Posts of an account suspended meanwhile are
dropped at once (``suspend``). A post's HTML is rendered once per event and shared by every viewer of the
process (at most twice: for its author, who gets a Delete button, and for everyone else).

A live page holds one of its client address's places while it is open (``streaming.places``: at most
``STREAMING_MAX_CONNECTIONS_PER_ADDRESS`` live pages and API streams per address); one more is answered 429.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming import events, live_params, live_reads, matching, places, writer
from streaming.flow import RAW_SEND
from streaming.hub import get_hub
from streaming.live_encoding import LiveEncoder, Snapshot, entry_of, render_entry, sse
from streaming.live_state import NOT_MERGED, Merged, Sent
from streaming.subscriptions import FALLING_BEHIND
from timelines import events as timeline_events
from timelines.keys.channels import hub_home, hub_list

__all__ = ["LiveEncoder", "LivePage", "entry_of", "live_home", "live_list", "live_me", "render_entry", "sse"]

logger = logging.getLogger(__name__)

BACKFILL_COUNT = live_reads.BACKFILL_COUNT
RETRY_MILLISECONDS = 3000
# Events held back while the page's timeline is read again after a reset: beyond this, the page is cut off and
# the browser reconnects (and catches up).
MAX_HELD = 200
# Every edit and deletion of the whole site is held too (the snapshot may show the post): more room for them.
MAX_HELD_CHANGES = 1000
# Moderation changes after which a page's posts are read again: what they undo (a suspension's end) or change
# (a limit) the page cannot work out by itself. A suspension itself is applied in place (``event: suspend``).
RESETTING_MODERATION = frozenset(
    {timeline_events.USER_UNSUSPENDED, timeline_events.USER_LIMITED, timeline_events.USER_UNLIMITED}
)
# Why a viewer's own live page closes when the moderators suspend them.
SUSPENDED = "suspended"
UNAVAILABLE = "unavailable"
TOO_MANY_FROM_ADDRESS = (
    "Too many live pages and streams are open from your address at once; close some tabs and reload this one.\n"
)
NOT_YOUR_LIST = live_params.NOT_YOUR_LIST

SSE_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache, no-store"),
    # nginx and similar proxies buffer responses unless told otherwise, which would hold events back.
    (b"x-accel-buffering", b"no"),
]


class LivePage:
    """The ASGI application of ``/live/home`` (``posts=True``), ``/live/list`` (``lists=True``) and ``/live/me``
    (notices only)."""

    def __init__(self, *, posts: bool, lists: bool = False) -> None:
        self.posts = posts
        self.lists = lists

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
            since_id = live_params.since_id(scope)
            conversation = live_params.query_id(scope, "conversation")
            list_id = live_params.query_id(scope, "list") if self.lists else None
        except ValueError:
            await _plain(send, 400, "since_id, conversation and list must be positive whole numbers.\n")
            return
        if self.lists:
            refusal = await live_params.list_refusal(int(user.uid), list_id)
            if refusal is not None:
                await _plain(send, *refusal)
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
                int(user.uid),
                since_id,
                receive,
                send,
                scope.get(RAW_SEND),
                taken=taken,
                conversation=conversation,
                list_id=list_id,
                resynced=live_params.resynced(scope),
                rendered=live_params.rendered(scope),
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
        list_id: int | None = None,
        encoder: writer.Encoder | None = None,
        opening: bytes | None = None,
        resynced: bool = False,
        rendered: dict[int, int] | None = None,
        serve: Callable[..., Awaitable[None]] | None = None,
    ) -> None:
        """Stream ``uid``'s live events: their home's deliveries, or with ``list_id`` those of that list (which the
        caller checked is theirs). ``encoder`` and ``opening`` (sent instead of the page's retry hint and
        catch-up) let another framing reuse the same subscription and flow control: the client API's ``user``
        stream (``api.streaming``), whose encoder ignores snapshots. ``resynced``: the browser reconnected, and
        gets its page's content as a reload shows it (``streaming.live_reads``) instead of a catch-up. ``rendered``:
        what the page was rendered with (``live_params.rendered``), compared on the first connect. ``serve``
        carries the stream to its client (``writer.serve``, the default; the client API's WebSocket has its own)."""
        timeline = hub_list(list_id) if list_id is not None else hub_home(uid)
        path = f"/lists/{list_id}" if list_id is not None else "/"
        encoder = encoder or LiveEncoder(uid, self.posts, conversation=conversation, path=path)
        # After a reset or a resync, the page's content is read again; every event arriving meanwhile waits in
        # ``held`` and follows the snapshot, in order (each offered again then, as if it came after it), so
        # nothing the snapshot missed is lost and nothing older overtakes it.
        holding = False
        held: list[dict[str, Any]] = []
        stale = asyncio.Event()
        # A resync is due (the hub subscribed again): the snapshot brings the conversation and the counts too.
        resync_due = False
        # The statuses this page was sent (whose edits it gets).
        sent = Sent()
        # For a home: the accounts it merges when read, and the policy's state for them.
        merged = Merged(uid) if list_id is None and self.posts else NOT_MERGED
        try:
            await merged.read()
        except UNAVAILABLE_ERRORS:
            await _plain(send, 503, "The timeline store is not answering right now.\n")
            return

        def reset() -> None:
            nonlocal holding
            holding = True
            stale.set()

        def resync() -> None:
            # The hub lost Redis and subscribed again: whatever was published meanwhile never came.
            nonlocal resync_due
            resync_due = True
            reset()

        def resets(event: dict[str, Any]) -> bool:
            """Whether ``event`` makes the page read its posts (its timeline, its conversation) again."""
            if not self.posts and conversation is None:
                return False
            kind = getattr(event, "type", None)
            if events.is_delivery(event):
                return event.kind == timeline_events.RESET and timeline in event.timelines  # type: ignore[attr-defined]
            # Relations (a block, a mute, an unfollow) change what the policy shows of what the timeline holds; so
            # does the end of a suspension or a limit (a limit's start too), which the page cannot undo by itself.
            if kind == timeline_events.USER_SUSPENDED and conversation is not None:
                # A conversation's messages carry no author mark for ``event: suspend``: the page reads it again.
                return True
            return kind in timeline_events.RELATION_TYPES or kind in RESETTING_MODERATION

        def matches(event: dict[str, Any]) -> bool:
            if isinstance(event, Snapshot):
                return True
            if _viewer_suspended(event, uid):
                subscription.cut_off(SUSPENDED)
                return False
            if resets(event):
                reset()
                # The encoder forgets a suspension that ended (posts of that account are shown again), and
                # learns one that began.
                return getattr(event, "type", None) in (
                    timeline_events.USER_UNSUSPENDED,
                    timeline_events.USER_SUSPENDED,
                )
            if events.is_delivery(event) or events.is_status(event):
                if not self.posts:
                    return False
                if events.is_delivery(event) and timeline not in event.timelines:  # type: ignore[attr-defined]
                    # Not written to this timeline: a post merged into homes when read (services.pulled) is judged
                    # for this viewer as the read judges it, when it is one of the accounts the home merges. Of an
                    # account just past the pull threshold, the home reads again whom it merges, then judges it.
                    if merged.unknown(event):
                        reset()
                    elif not merged.shows(event):
                        return False
            if holding:
                if len(held) >= (MAX_HELD_CHANGES if events.is_status(event) else MAX_HELD):
                    subscription.cut_off(FALLING_BEHIND)
                else:
                    held.append(event)
                return False
            if events.is_delivery(event):
                if event.kind == timeline_events.POST:  # type: ignore[attr-defined]
                    sent.add(event)
                elif event.kind == timeline_events.DELETE:  # type: ignore[attr-defined]
                    if sent.is_repost(int(event["id"])):
                        reset()  # see the repost's status.deleted below, which may come first or second
                    return sent.delete(int(event["id"]), always=True)
                return True
            if events.is_status(event):
                # A deletion leaves every page that was sent the post at once (a reload no longer shows it,
                # whatever timeline still holds it until its withdrawal pass), and an edit reaches it; the posts
                # themselves come by delivery, not from here. Nothing is said of a post the page was not sent.
                if events.is_deletion(event):
                    if sent.is_repost(int(event["id"])):
                        # A repost shows a post once on a page, in place of its older entries: what shows once it
                        # is gone is read again (the original where the page read finds it), whichever of its
                        # deletion and its withdrawal from this timeline comes first.
                        reset()
                    return sent.delete(int(event["id"]))
                return getattr(event, "type", None) == timeline_events.STATUS_UPDATED and int(event["id"]) in sent
            return True  # notices are indexed for this viewer (or for moderation) only

        hub = get_hub()
        subscription = hub.subscribe(
            index_keys={
                *((timeline, matching.DELETIONS, matching.UPDATES) if self.posts else ()),
                *merged.index_keys(),
                matching.user_key(uid),
                matching.MODERATION,
            },
            matches=matches,
            maxsize=settings.STREAMING_QUEUE_SIZE,
            public=False,
        )
        if opening is None:
            subscription.on_resync = resync
        attach = getattr(encoder, "attach", None)
        if attach is not None:
            # An encoder that adds events of its own (the client API's notifications) offers them here.
            attach(subscription)

        async def preamble() -> list[bytes]:
            # The timeline's first page, as the page (or an app) already has it: its posts' later edits and
            # deletions are sent; the entries newer than ``since_id`` are sent now. A page that reconnects may
            # have missed anything: it gets its content as a reload shows it instead.
            hint = f"retry: {RETRY_MILLISECONDS}\n\n".encode()
            if resynced and opening is None:
                try:
                    chunk, ids = await sync_to_async(live_reads.resync, thread_sensitive=False)(
                        uid, posts=self.posts, list_id=list_id, path=path, conversation=conversation
                    )
                except UNAVAILABLE_ERRORS:
                    chunk, ids = b"", []
                sent.update_entries(ids)
                return [hint, chunk, b": live\n\n"]
            caught_up, ids = (
                await sync_to_async(live_reads.catch_up, thread_sensitive=False)(
                    uid, since_id, list_id, path, opening is None, rendered
                )
                if self.posts
                else ([], [])
            )
            sent.update_entries(ids)
            if opening is not None:
                return [opening]
            return [hint, *caught_up, b": live\n\n"]

        async def refresh() -> None:
            # Read the page again after each reset or resync, then let what was held back follow.
            nonlocal holding, resync_due
            while True:
                await stale.wait()
                stale.clear()
                full, resync_due = resync_due, False
                try:
                    chunk, ids = await sync_to_async(live_reads.resync, thread_sensitive=False)(
                        uid, posts=self.posts, list_id=list_id, path=path, conversation=conversation, with_counts=full
                    )
                    await merged.read()
                except UNAVAILABLE_ERRORS:
                    subscription.cut_off(UNAVAILABLE)  # the browser reconnects and resyncs
                    hub.flush()
                    return
                if stale.is_set():
                    resync_due = resync_due or full
                    continue  # another reset meanwhile: read again, still holding
                waiting = held[:]
                held.clear()
                holding = False
                if self.posts:
                    sent.clear()
                    sent.update_entries(ids)
                subscription.offer(Snapshot(chunk))
                for event in waiting:
                    subscription.offer(event)
                hub.flush()  # what a sink took outside the hub's own pass

        async def alongside() -> None:
            # One group, so a failure of either ends the other too: no renewal outlives its page.
            async with asyncio.TaskGroup() as group:
                group.create_task(refresh())
                if taken is not None:
                    group.create_task(taken.keep())

        await (serve or writer.serve)(
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
live_list = LivePage(posts=True, lists=True)
live_me = LivePage(posts=False)

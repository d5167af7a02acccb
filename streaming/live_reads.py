"""What a live page reads, the way a reload of the page reads it (``streaming.live``): the catch-up when it
connects, the timeline's first page after a reset, and everything a page may have missed, on a resync.

A **resync** is what a page gets when it cannot know what it missed: the browser reconnected (its stream was cut
off, the network dropped, the server restarted: ``?resync=1`` or a ``Last-Event-ID`` header), or the process's
hub lost Redis and subscribed again (pub/sub is at-most-once: whatever was published meanwhile is gone). It is
the page's content as a reload shows it: the timeline's first page (``event: timeline``) for a home or a list,
the conversation's newest messages (``event: thread``) for ``/messages/<id>``, and the header's counts
(``event: notifications``, ``event: messages``) for every page. Each is read here, off the event loop, by the
selectors the pages themselves render from, so nothing is decided again.
"""

from __future__ import annotations

from typing import Any

from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming.live_encoding import entry_html, render_entry, snapshot_event, sse
from timelines import exceptions, limits, selectors
from timelines.records import TimelineEntry

# What a page shows, as ``streaming.live_state.Sent`` keeps it: (entry id, status id) of each entry.
Shown = list[tuple[int, int]]
# Catch-up after connecting, and a snapshot after a reset or a resync: one page, as a reload shows it.
BACKFILL_COUNT = limits.DEFAULT_PAGE_SIZE


def entries(uid: int, list_id: int | None, since_id: int | None) -> list[Any]:
    """The first page of the page's timeline (newer than ``since_id``), read as a reload reads it."""
    if list_id is not None:
        return selectors.get_list_status_messages(
            list_id=list_id, since_id=since_id, count=BACKFILL_COUNT, viewer_uid=uid
        )
    return selectors.get_status_messages(uid=uid, timeline="home", since_id=since_id, count=BACKFILL_COUNT)


def status_ids(found: list[TimelineEntry]) -> Shown:
    """Each entry's id and its status's id (they differ for a repost: the entry is the repost, the status its
    original), for ``streaming.live_state.Sent``."""
    return [(entry.entry_id, entry.status.id) for entry in found]


def catch_up(
    uid: int, since_id: int, list_id: int | None, path: str, render: bool, rendered: dict[int, int] | None = None
) -> tuple[list[bytes], Shown]:
    """The ``post`` events of the timeline's first page's entries newer than ``since_id``, oldest first (each
    goes on top), and the status ids of the whole first page. Rendered here, for this viewer (what they liked or
    reposted shows), in the thread that read them: a page of renders on the event loop would hold every stream
    of the process, and a cut-off makes many pages reconnect at once. When the page's ``rendered`` mark shows
    that an entry it holds was deleted, hidden or edited since (or an older one came in), the ``timeline``
    event instead: the first page as a reload shows it, from the same read."""
    try:
        found = entries(uid, list_id, None)
    except (*UNAVAILABLE_ERRORS, exceptions.UnknownList, exceptions.UnknownUser):
        return [], []
    if render and rendered is not None and changed_since_render(found, rendered, since_id):
        chunk = snapshot_event(found, viewer_uid=uid, path=path, complete=len(found) < BACKFILL_COUNT)
        return [chunk], status_ids(found)
    newer = [entry for entry in found if entry.entry_id > since_id] if render else []
    return [render_entry(entry, viewer_uid=uid, path=path) for entry in reversed(newer)], status_ids(found)


def changed_since_render(found: list[TimelineEntry], rendered: dict[int, int], since_id: int) -> bool:
    """Whether the first page as read now (``found``) differs from what the page was rendered with, in what a
    catch-up of the entries newer than ``since_id`` cannot tell it: an entry it shows that is gone (deleted,
    withdrawn, hidden since) or whose status was edited, or an entry older than ``since_id`` that came in. Entries
    older than both pages' oldest are not compared (the newer ones pushed them off the page read now)."""
    now = {entry.entry_id: entry.edits for entry in found if entry.entry_id <= since_id}
    if not rendered:
        return bool(now)
    full = len(found) < BACKFILL_COUNT  # the whole timeline was read: anything missing is gone
    floor = max(min(rendered), min(now, default=0)) if not full else 0
    for entry_id, edits in rendered.items():
        if entry_id >= floor and now.get(entry_id) != edits:
            return True
    return any(entry_id >= floor and entry_id not in rendered for entry_id in now)


def snapshot(uid: int, list_id: int | None, path: str) -> tuple[bytes, Shown]:
    """The ``timeline`` event: the timeline's first page as a reload shows it, and its status ids."""
    try:
        found = entries(uid, list_id, None)
    except (exceptions.UnknownList, exceptions.UnknownUser):
        found = []
    chunk = snapshot_event(found, viewer_uid=uid, path=path, complete=len(found) < BACKFILL_COUNT)
    return chunk, status_ids(found)


def thread(uid: int, conversation_id: int) -> bytes:
    """``event: thread``: conversation ``conversation_id``'s newest messages as its page shows them
    (``{"entries": [{"id", "html"}, ...], "complete": bool}``, newest first; ``complete`` when it holds them all);
    nothing when ``uid`` is not part of it (the page asked for someone else's conversation)."""
    try:
        found = selectors.get_conversation(uid=uid, conversation_id=conversation_id)
    except exceptions.ConversationNotFound:
        return b""
    path = f"/messages/{conversation_id}"
    data = {
        "entries": [
            {"id": entry.entry_id, "html": entry_html(entry, viewer_uid=uid, path=path)} for entry in found.messages
        ],
        "complete": found.before is None,
    }
    return sse("thread", data)


def counts(uid: int) -> bytes:
    """The header's counts as a reload shows them: unread notifications and unread conversations."""
    return sse("notifications", {"unread": selectors.get_unread_count(uid=uid)}) + sse(
        "messages", {"unread": selectors.get_unread_conversations(uid=uid)}
    )


def resync(
    uid: int, *, posts: bool, list_id: int | None, path: str, conversation: int | None, with_counts: bool = True
) -> tuple[bytes, Shown]:
    """What a page shows as a reload shows it: its timeline's first page (with ``posts``) and its status ids,
    its conversation's messages (with ``conversation``) and (``with_counts``) its header's counts: everything it
    may have missed (see the module docstring), or without the counts what a reset changes."""
    chunk, ids = snapshot(uid, list_id, path) if posts else (b"", [])
    if conversation is not None:
        chunk += thread(uid, conversation)
    return chunk + (counts(uid) if with_counts else b""), ids

"""The bytes of a live page (``streaming.live``): server-sent events rendered from what the delivery wrote.

A live home or list page shows what the delivery pipeline (``timelines.services.delivery``) wrote to its
timeline: a ``timeline.delivery`` event of kind ``post`` becomes ``event: post`` with the entry's HTML (the
partial the page itself uses), ``delete`` becomes ``event: delete``, an edit (``status.updated``, for the posts
the page was sent) ``event: update``, an edited direct message (``message.updated``) ``event: edited``,
and a ``Snapshot`` (the timeline read again after a ``reset``) ``event: timeline`` with the first page as a
reload shows it. Nothing here decides who may see what: the delivery did, for this timeline's reader.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import render_to_string

from streaming import events
from timelines import events as timeline_events
from timelines.records import Author, Status, TimelineEntry

logger = logging.getLogger("streaming.live")

SNAPSHOT = "live.snapshot"


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


def entry_html(entry: TimelineEntry, *, viewer_uid: int, path: str = "/") -> str:
    return render_to_string(
        "timelines/_status.html", {"status": entry, "viewer_uid": viewer_uid, "current_path": path, "fresh": True}
    )


def render_entry(entry: TimelineEntry, *, viewer_uid: int, path: str = "/") -> bytes:
    html = entry_html(entry, viewer_uid=viewer_uid, path=path)
    return sse("post", {"id": entry.entry_id, "html": html}, event_id=entry.entry_id)


def snapshot_event(entries: list[TimelineEntry], *, viewer_uid: int, path: str, complete: bool) -> bytes:
    """``event: timeline``: the timeline's first page as a reload shows it, newest first; ``complete`` when it
    holds everything the timeline has (the page drops whatever else it shows), otherwise the page keeps what
    is older than the snapshot's oldest entry."""
    data = {
        "entries": [
            {"id": entry.entry_id, "html": entry_html(entry, viewer_uid=viewer_uid, path=path)} for entry in entries
        ],
        "complete": complete,
    }
    newest = entries[0].entry_id if entries else None
    return sse("timeline", data, event_id=newest)


class Snapshot(dict[str, Any]):
    """A timeline read again after a ``reset``, offered to the page's own subscription: its bytes are ready."""

    __slots__ = ("type",)

    def __init__(self, chunk: bytes) -> None:
        super().__init__(chunk=chunk)
        self.type = SNAPSHOT


@dataclass
class LiveEncoder:
    """The SSE bytes of one viewer's live page. A post is rendered once per event and kept on it: the same
    bytes serve every viewer of that timeline kind but its author (who also gets Delete).

    That sharing holds because ``_status.html`` depends on its viewer only through ``viewer_uid``: whether
    someone is logged in (Like and Repost) and whether they wrote the post (Delete). Every viewer of a live page
    is logged in, so two renders per page path cover them all; a request-bound value such as a CSRF token is
    never rendered here (htmx sends the page's token in a header).
    """

    uid: int
    posts: bool = True
    keepalive: bytes = b": keep-alive\n\n"
    # The conversation the page shows (``/messages/<id>``), whose new messages it gets.
    conversation: int | None = None
    # The page's path, for the links of its entries (a list page's actions come back to it).
    path: str = "/"
    # Accounts suspended since the page opened: their posts still queued are not shown.
    suspended: set[int] = field(default_factory=set)

    def event(self, item: dict[str, Any]) -> bytes:
        kind = getattr(item, "type", timeline_events.STATUS_CREATED)
        try:
            if kind == SNAPSHOT:
                return item["chunk"]
            if kind in timeline_events.NOTIFICATION_TYPES:
                return sse("notifications", {"unread": int(item["unread"])})
            if kind in timeline_events.MESSAGE_TYPES:
                return self._message(item)
            if kind == timeline_events.USER_SUSPENDED:
                self.suspended.add(int(item["uid"]))
                return sse("suspend", {"uid": int(item["uid"])}) if self.posts else b""
            if kind == timeline_events.USER_UNSUSPENDED:
                self.suspended.discard(int(item["uid"]))  # the page reads its timeline again (streaming.live)
                return b""
            if self.posts and events.is_status(item) and events.is_deletion(item):
                return sse("delete", {"id": int(item["id"])})
            if self.posts and kind == timeline_events.STATUS_UPDATED:
                return b"" if int(item["uid"]) in self.suspended else self._edited(item)
            if not self.posts or not events.is_delivery(item):
                return b""
            return self._delivered(item)
        except (KeyError, TypeError, ValueError):
            logger.warning("Skipped a malformed stream event %s.", item.get("id"))
            return b""

    def _delivered(self, item: Any) -> bytes:
        if item.kind == timeline_events.DELETE:
            return sse("delete", {"id": int(item["id"])})
        if item.kind != timeline_events.POST:
            return b""  # a kind this page does not know (subscribers ignore them)
        if int(item["uid"]) in self.suspended:
            return b""
        return self._rendered(item)

    def _message(self, item: dict[str, Any]) -> bytes:
        """A direct message event (only ever the viewer's own: it is indexed for them alone): the header's count,
        and the message itself when the page shows its conversation. An edited message (``message.updated``) is
        ``event: edited``: its HTML for the page of its conversation (swapped in where it shows), its id alone
        elsewhere (an open list of conversations reads itself again)."""
        if getattr(item, "type", None) == timeline_events.MESSAGE_UPDATED:
            return self._message_edited(item)
        chunk = sse("messages", {"unread": int(item["unread"])})
        if self.conversation is None:
            return chunk
        if item.get("removed") is not None:
            return chunk + sse("unmessage", {"id": int(item["removed"])})
        if item.get("conversation") != self.conversation or not isinstance(item.get("status"), dict):
            return chunk
        entry = TimelineEntry(Status.from_hash(item["status"]))
        html = entry_html(entry, viewer_uid=self.uid, path=f"/messages/{self.conversation}")
        return sse("message", {"id": entry.entry_id, "html": html, "mine": entry.status.uid == self.uid}) + chunk

    def _message_edited(self, item: dict[str, Any]) -> bytes:
        conversation = int(item["conversation"])
        data: dict[str, Any] = {"id": int(item["status"]["id"]), "conversation": conversation}
        if conversation == self.conversation:
            entry = TimelineEntry(Status.from_hash(item["status"]))
            data["html"] = entry_html(entry, viewer_uid=self.uid, path=f"/messages/{conversation}")
        return sse("edited", data)

    def _rendered(self, item: dict[str, Any]) -> bytes:
        mine = int(item["uid"]) == self.uid
        cache = getattr(item, "cache", None)
        key = ("html", mine, self.path)
        if cache is not None and key in cache:
            return cache[key]
        # Rendered as this viewer, kept for every viewer who stands where they stand (author or not): the page of
        # any other logged-in reader is the same, and a viewer uid of 0 would render an anonymous reader's
        # page, without Like and Repost.
        rendered = render_entry(entry_of(item), viewer_uid=self.uid, path=self.path)
        if cache is not None:
            cache[key] = rendered
        return rendered

    def _edited(self, item: dict[str, Any]) -> bytes:
        """An edited post (``status.updated``), rendered once per event for every viewer: the page takes only its
        text and its "Edited" line, which are the same for everyone (each viewer's buttons stay as the page has
        them), wherever it shows the post (``data-status``)."""
        cache = getattr(item, "cache", None)
        if cache is not None and "edited" in cache:
            return cache["edited"]
        html = entry_html(entry_of(item), viewer_uid=self.uid, path=self.path)
        rendered = sse("update", {"id": int(item["id"]), "html": html})
        if cache is not None:
            cache["edited"] = rendered
        return rendered

    def disconnect(self, reason: str) -> bytes:
        return sse("reload", {"reason": reason})

"""The token's person's own flags on streamed statuses (``favourited``, ``reblogged``, ``bookmarked``), as Mastodon
renders each streamed status for its recipient.

A stream must not wait on a read, and a status's bytes are shaped once per event and shared by every stream of the
process. Most streamed statuses are new posts, which no one can have liked, reposted or bookmarked yet: those keep
the shared bytes (every flag false). A repost (its original may be old) and an edit (``status.update``) may carry
flags, so for those ``InOrder`` reads the person's flags off the event loop (``selectors.viewer_flags``, one round
trip for a burst) and offers the shaped status back to the stream's own subscription as a ready event. Whatever
the stream sends meanwhile waits behind it, so the stream keeps the order of its events; past
``STREAMING_QUEUE_SIZE`` waiting, the stream is cut off as a slow reader is. ``muted`` stays false: the site has no
muted conversations.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from api.entities.statuses import streamed_status
from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming.live import entry_of
from streaming.subscriptions import FALLING_BEHIND
from timelines.records import TimelineEntry
from timelines.selectors.viewer_flags import with_viewer_flags

# (the event, its SSE name) to shape with the person's flags, or bytes ready to send.
Waiting = tuple[dict[str, Any], str] | bytes


def needs_flags(item: dict[str, Any], name: str) -> bool:
    """Whether a streamed status may carry flags of its viewer: a repost, or an edit."""
    return name == "status.update" or isinstance(item.get("repost_of"), dict)


class InOrder:
    """The statuses of one stream that wait for their viewer's flags, and what the stream sends after them."""

    def __init__(self, uid: int, origin: Any, frame: Callable[[str, str], bytes], prepared: Callable[[bytes], Any]):
        self.uid = uid
        self.origin = origin
        self.frame = frame
        self.prepared = prepared
        self.waiting: list[Waiting] = []
        self.subscription: Any = None
        self.task: asyncio.Task[None] | None = None

    def busy(self) -> bool:
        return bool(self.waiting)

    def hold(self, entry: Waiting) -> bytes:
        """Keep ``entry`` until the statuses before it are shaped; nothing is sent now."""
        if self.subscription is None:
            return b""
        if len(self.waiting) >= settings.STREAMING_QUEUE_SIZE:
            self.waiting.clear()
            self.subscription.cut_off(FALLING_BEHIND)
            return b""
        self.waiting.append(entry)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._drain())
        return b""

    async def _drain(self) -> None:
        while self.waiting:
            batch = self.waiting[:]
            entries = [entry_of(item) for item, _ in (pair for pair in batch if not isinstance(pair, bytes))]
            try:
                read = sync_to_async(_flagged, thread_sensitive=False)
                flagged = iter(await read(entries, self.uid))
            except UNAVAILABLE_ERRORS:
                flagged = iter(entries)  # the flags as the shared bytes have them: better late than never
            for pair in batch:
                if isinstance(pair, bytes):
                    data = pair
                else:
                    shaped = streamed_status(self.origin, next(flagged))
                    data = self.frame(pair[1], json.dumps(shaped, separators=(",", ":"))) if shaped else b""
                if data:
                    with contextlib.suppress(Exception):
                        self.subscription.offer(self.prepared(data))
            del self.waiting[: len(batch)]
            self.subscription.hub.flush()


def _flagged(entries: list[TimelineEntry], uid: int) -> list[TimelineEntry]:
    return with_viewer_flags(entries, viewer=uid)

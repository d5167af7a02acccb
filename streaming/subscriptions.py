"""A client's subscription to the process's hub (``streaming.hub``): the events matching its filter, handed to
its sink (the stream writer's direct write) while nothing waits in its queue, otherwise queued; a bounded queue
whose overflow cuts the client off with a ``Disconnect``. The hub owns the subscriptions; this module owns what
one of them does with an event.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

logger = logging.getLogger("streaming.hub")


class Owner(Protocol):
    """What a subscription needs of its hub: to leave it."""

    def remove(self, subscription: Subscription) -> None: ...


FALLING_BEHIND = "falling behind"


@dataclass(frozen=True, slots=True)
class Disconnect:
    """The last item a subscription yields when the hub cut it off."""

    reason: str


class Subscription:
    """A client's view of the stream: the events matching its filter, through a bounded queue."""

    def __init__(
        self,
        hub: Owner,
        index_keys: Iterable[str],
        matches: Callable[[dict[str, Any]], bool],
        maxsize: int,
        public: bool = True,
    ) -> None:
        self.hub = hub
        self.index_keys = frozenset(index_keys)
        self.matches = matches
        self.public = public
        self.queue: asyncio.Queue[dict[str, Any] | Disconnect] = asyncio.Queue(maxsize=maxsize)
        # Set by the stream writer: writes an event to the client now and returns True, or returns False (not
        # ready) and the event is queued. Tried only while the queue is empty, so events keep their order.
        self.sink: Callable[[dict[str, Any]], bool] | None = None
        # Called by the hub when it subscribed to Redis again after losing it (``Hub.resync``): events published
        # meanwhile never came, so a live page reads its content again. None: the stream carries on (the public
        # streams: pub/sub is at-most-once, as Twitter's streams were).
        self.on_resync: Callable[[], None] | None = None
        self.closed = False
        # Set when the subscription leaves the hub (closed or cut off), so a writer blocked on a client that
        # is not reading can wake up and deliver the disconnect notice.
        self.ended = asyncio.Event()

    def offer(self, event: dict[str, Any]) -> bool:
        """Deliver ``event`` if it matches: to the sink, else to the queue. True when delivered or queued."""
        if self.closed:
            return False
        try:
            wanted = self.matches(event)
        except Exception:
            # One subscriber's faulty predicate must not stop the events of every other subscriber.
            logger.exception("A stream filter failed on event %s; skipped.", event.get("id"))
            return False
        if not wanted:
            return False
        sink = self.sink
        if sink is not None and not self.queue.qsize():
            try:
                if sink(event):
                    return True
            except Exception:
                # Nor must one client's encoding or connection (the writer sees the same failure and ends it).
                logger.exception("A stream writer failed on event %s; queued.", event.get("id"))
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            self.cut_off(FALLING_BEHIND)
            return False
        return True

    def cut_off(self, reason: str) -> None:
        """Drop what is pending, leave only the disconnect notice, and leave the hub."""
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(Disconnect(reason))
        self.hub.remove(self)

    async def get(self) -> dict[str, Any] | Disconnect:
        return await self.queue.get()

    def close(self) -> None:
        self.hub.remove(self)

    def __aiter__(self) -> AsyncIterator[dict[str, Any] | Disconnect]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[dict[str, Any] | Disconnect]:
        while True:
            item = await self.queue.get()
            yield item
            if isinstance(item, Disconnect):
                return

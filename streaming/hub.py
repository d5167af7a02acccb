"""One Redis pub/sub subscription per server process, shared by every streaming client of that process.

The hub reads ``keys.STREAM_CHANNEL`` on a single connection (book section 8.5 opened one per client) and
hands each event to the subscriptions that can match it. Subscriptions register *index keys* (see
``streaming.matching``): an event is offered only to subscriptions under one of its own keys, so the cost of
an event grows with the clients that could want it, not with every connected client. Each subscription then
runs its exact ``matches`` check.

A subscription may also have a *sink*: its stream writer's way to put an event on the client's connection at
once (``streaming.writer``). While nothing waits in its queue, the hub hands a matching event to the sink, which
writes the bytes encoded once for the event straight to a client whose connection is ready, and says so; when
the sink declines (the client is not reading, or the writer is busy), the event goes to the queue as before,
and the queue keeps the order until it is empty again. An event thus reaches 1,000 ready clients in one pass of
the hub, without waking 1,000 writer tasks. When the hub has fallen behind (events already waiting in its
connection's read buffer), it dispatches up to ``MAX_BURST`` of them before flushing: a sink only collects its
bytes and asks the hub (``defer_flush``) to write them at the end of the pass, so a client gets the burst in one
write instead of one per event.

Every subscription has a bounded queue. A client that falls so far behind that its queue is full is cut off:
its pending events are dropped and it receives a ``Disconnect`` with the reason, without slowing anyone else
and without memory growing. (The queue only fills if its reader stops taking events while the client is not
reading; on daphne that takes ``streaming.flow``, because daphne's ``send`` never waits.) Closing a
subscription removes it at once; when the last one closes, the hub stops reading and drops its Redis
connection. If the connection dies (Redis restarted, the subscriber killed) or stops answering (an idle
connection's PING goes unanswered), the hub reconnects (``streaming.hub_reader``) with a short backoff, never
blocking the event loop, and carries on (on a Redis Cluster, to the next node ``REDIS_CLUSTER_URL`` names, so a
primary killed and failed over does not silence it); events published while it was away are lost, as pub/sub
is at-most-once by nature. Once subscribed again, it calls every subscription's ``on_resync``: a live page then
reads its content again as a reload would (``streaming.live_reads``), so what it missed does not stay missed;
the public streams carry on.

Every event is put to the per-recipient policy (``timelines.policy``) once for the public
(``recipient=None``), before any subscription sees it; subscriptions are public by default and are offered only
events the public may receive. A subscription of one viewer's pages (a live home or list, which follows the
``timeline.delivery`` events naming its timeline: the delivery asked the policy for its reader) passes
``public=False`` and is offered every event its index keys select. Events of types the streams
do not show are skipped.

The hub lives on the event loop that created it (daphne runs one per process); ``get_hub()`` returns it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

from streaming import events, hub_reader, matching
from streaming.subscriptions import Subscription
from timelines import events as timeline_events
from timelines import keys, policy

logger = logging.getLogger(__name__)

DEFAULT_QUEUE_SIZE = 1000
# Moderation events after which an account's posts must leave the public streams at once.
WITHHOLDING_TYPES = frozenset({timeline_events.USER_SUSPENDED, timeline_events.USER_LIMITED})


@dataclass
class HubStats:
    events: int = 0
    delivered: int = 0
    reconnects: int = 0
    cut_off: int = 0
    candidates: int = 0
    decode_errors: int = 0
    ignored: int = 0
    policy_reloads: int = 0
    resyncs: int = 0
    extra: dict[str, int] = field(default_factory=dict)


class Hub:
    def __init__(self, channel: str = keys.STREAM_CHANNEL) -> None:
        self.channel = channel
        self.subscriptions: set[Subscription] = set()
        self.index: dict[str, set[Subscription]] = {}
        self.stats = HubStats()
        self.connected = asyncio.Event()
        # What the policy needs to decide for the public, loaded off the loop on every (re)connect.
        self.public_state: Any = None
        # Accounts just suspended or limited: their posts stay off the public streams until ``public_state`` has
        # been read again, so none slips out in the moment between the event and the re-read.
        self.withheld: set[int] = set()
        self._reloads_started = 0
        self._reload_applied = 0
        self._task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()
        # What the sinks collected during this pass and must write at its end (``defer_flush``).
        self._flushes: list[Callable[[], None]] = []

    # --- subscriptions ---

    def subscribe(
        self,
        *,
        index_keys: Iterable[str],
        matches: Callable[[dict[str, Any]], bool],
        maxsize: int = DEFAULT_QUEUE_SIZE,
        public: bool = True,
    ) -> Subscription:
        """Register a subscription offered every event carrying one of ``index_keys`` (``matching.ALL`` for
        every event) and passing ``matches``; with ``public`` (the default), only events that
        the policy lets the public receive. Starts reading Redis if this is the first subscription."""
        subscription = Subscription(self, index_keys, matches, maxsize, public)
        self.subscriptions.add(subscription)
        for key in subscription.index_keys:
            self.index.setdefault(key, set()).add(subscription)
        if self._task is None or self._task.done():
            self.connected.clear()
            self._task = asyncio.get_running_loop().create_task(hub_reader.read(self), name="streaming-hub")
        return subscription

    @contextlib.asynccontextmanager
    async def subscription(self, **kwargs: Any) -> AsyncIterator[Subscription]:
        subscription = self.subscribe(**kwargs)
        try:
            yield subscription
        finally:
            subscription.close()

    def remove(self, subscription: Subscription) -> None:
        if subscription.closed:
            return
        subscription.closed = True
        subscription.ended.set()
        self.subscriptions.discard(subscription)
        for key in subscription.index_keys:
            bucket = self.index.get(key)
            if bucket is not None:
                bucket.discard(subscription)
                if not bucket:
                    del self.index[key]
        if not self.subscriptions and self._task is not None:
            self._task.cancel()
            self._task = None
            self.connected.clear()

    def snapshot(self) -> dict[str, Any]:
        """Counters for operators and tests: live subscriptions, index size, and what the hub has done."""
        return {
            "subscriptions": len(self.subscriptions),
            "index_keys": len(self.index),
            "reading": self._task is not None and not self._task.done(),
            "connected": self.connected.is_set(),
            "events": self.stats.events,
            "delivered": self.stats.delivered,
            "candidates": self.stats.candidates,
            "cut_off": self.stats.cut_off,
            "reconnects": self.stats.reconnects,
            "decode_errors": self.stats.decode_errors,
            "ignored": self.stats.ignored,
            "policy_reloads": self.stats.policy_reloads,
            "resyncs": self.stats.resyncs,
        }

    # --- dispatch ---

    def defer_flush(self, flush: Callable[[], None]) -> None:
        """Call ``flush`` at the end of the current pass (a sink that collected bytes for its client)."""
        self._flushes.append(flush)

    def flush(self) -> None:
        """Write what the sinks collected during this pass."""
        flushes, self._flushes = self._flushes, []
        for flush in flushes:
            try:
                flush()
            except Exception:
                logger.exception("A stream writer failed to flush; its stream ends.")

    def dispatch(self, raw: str | bytes) -> None:
        """Offer one published event to the subscriptions indexed under its keys, and write it out."""
        try:
            self.dispatch_one(raw)
        finally:
            self.flush()

    def dispatch_one(self, raw: str | bytes) -> None:
        """Offer one published event to the subscriptions indexed under its keys; the sinks' bytes wait for
        ``flush``, at the end of the reader's pass."""
        try:
            event = events.decode(raw)
            index_keys = matching.event_index_keys(event)
        except events.IgnoredEvent:
            self.stats.ignored += 1
            return
        except (ValueError, TypeError, KeyError):
            self.stats.decode_errors += 1
            # Not the event itself: it may be a private post's text (nothing private in a log line).
            logger.warning("Dropped a stream event that is not a status (%d bytes).", len(raw))
            return
        self.stats.events += 1
        if events.is_status(event):
            chooser = policy.get_policy()
            item = policy.Item.of_status(event, context=policy.LISTING)
            public = chooser.allows(self.public_state, recipient=policy.PUBLIC, item=item)
            if public and self.withheld and _authors_of(event) & self.withheld:
                public = False
        else:
            public = False  # a notice for one user's pages, or a moderation change: never on public streams
            if event.type in timeline_events.USER_TYPES:
                if event.type in WITHHOLDING_TYPES:
                    self.withheld.add(int(event["uid"]))
                self._reload_public_state()
        candidates: set[Subscription] = set()
        for key in index_keys:
            bucket = self.index.get(key)
            if bucket:
                candidates |= bucket
        if not public:
            candidates = {subscription for subscription in candidates if not subscription.public}
        self.stats.candidates += len(candidates)
        delivered = 0
        for subscription in candidates:
            if subscription.offer(event):
                delivered += 1
            elif subscription.closed:
                self.stats.cut_off += 1
        self.stats.delivered += delivered

    def reindex(self, subscription: Subscription, index_keys: Iterable[str]) -> None:
        """Offer ``subscription`` the events of ``index_keys`` from now on (a live home whose viewer followed
        or unfollowed someone), without a new subscription or losing what its queue holds."""
        new = frozenset(index_keys)
        if subscription.closed:
            return
        for key in subscription.index_keys - new:
            bucket = self.index.get(key)
            if bucket is not None:
                bucket.discard(subscription)
                if not bucket:
                    del self.index[key]
        for key in new - subscription.index_keys:
            self.index.setdefault(key, set()).add(subscription)
        subscription.index_keys = new

    def is_reader(self) -> bool:
        """Whether the running task is this hub's reader (``hub_reader.read``): one that was replaced or stopped,
        whose cancellation a read's own timeout swallowed, must stop rather than dispatch every event a second
        time."""
        return self._task is asyncio.current_task()

    def resync(self) -> None:
        """Tell every subscription that can catch up (``on_resync``) that events may have been missed: the hub just
        subscribed again after losing its connection."""
        self.stats.resyncs += 1
        for subscription in list(self.subscriptions):
            if subscription.on_resync is not None and not subscription.closed:
                try:
                    subscription.on_resync()
                except Exception:
                    logger.exception("A stream failed to resync; it carries on.")

    def _reload_public_state(self) -> None:
        """Re-read what the policy needs for the public (an account was suspended or limited), off the loop."""

        withheld = set(self.withheld)
        self._reloads_started += 1
        generation = self._reloads_started

        async def reload() -> None:
            with contextlib.suppress(RedisError, OSError):
                state = await policy.get_policy().aload(recipients=(policy.PUBLIC,), authors=())
                # Re-reads run side by side: one started earlier, which may have read before the latest change,
                # never replaces the state of one started later.
                if generation > self._reload_applied:
                    self.public_state, self._reload_applied = state, generation
                self.withheld -= withheld
                self.stats.policy_reloads += 1

        task = asyncio.get_running_loop().create_task(reload())
        self._background.add(task)
        task.add_done_callback(self._background.discard)


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def get_hub() -> Hub:
    """The hub of the running event loop, made on first use."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        for stale in [other for other in _hubs if other.is_closed()]:
            del _hubs[stale]
        hub = _hubs[loop] = Hub()
    return hub


def _authors_of(event: dict[str, Any]) -> set[int]:
    """The author of a status event, and of the post it reposts."""
    authors = {int(event["uid"])}
    original = event.get("repost_of")
    if isinstance(original, dict) and "uid" in original:
        authors.add(int(original["uid"]))
    return authors

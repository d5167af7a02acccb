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
connection's PING goes unanswered), the hub reconnects with a short backoff, never blocking the event loop, and
carries on (on a Redis Cluster, to the next node ``REDIS_CLUSTER_URL`` names, so a primary killed and failed over
does not silence it); events published while it was away are lost, as pub/sub is at-most-once by nature. Once
subscribed again, it calls every subscription's ``on_resync``: a live page then reads its content again as a
reload would (``streaming.live_reads``), so what it missed does not stay missed; the public streams carry on.

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

from socialsite.redis_client import get_async_redis
from streaming import events, matching
from streaming.subscriptions import Subscription
from timelines import events as timeline_events
from timelines import keys, policy

logger = logging.getLogger(__name__)

DEFAULT_QUEUE_SIZE = 1000
RECONNECT_MIN_SECONDS = 0.1
RECONNECT_MAX_SECONDS = 2.0
# How often an idle subscriber connection is checked with PING, and how long its answer may take: the connection
# has no read timeout (it may rightly stay idle for hours), so a server that stopped answering (paused, wedged,
# or gone without a reset) would otherwise hold the hub, and every stream of the process, silent for good.
PING_INTERVAL_SECONDS = 10.0
PONG_TIMEOUT_SECONDS = 5.0
# Connecting, SUBSCRIBE and the policy's public state, for the same reason.
HANDSHAKE_TIMEOUT_SECONDS = 5.0
READ_TIMEOUT_SECONDS = 1.0

# Moderation events after which an account's posts must leave the public streams at once.
WITHHOLDING_TYPES = frozenset({timeline_events.USER_SUSPENDED, timeline_events.USER_LIMITED})

# Events dispatched in one pass before the sinks' bytes are written and the writers get the loop; well under
# any stream's queue size, so clients served through their queues still drain them between passes.
MAX_BURST = 16


async def _subscribed(pubsub: Any) -> list[Any]:
    """Read the subscriber connection up to the answer to the PING sent after its SUBSCRIBE, and return the events
    read on the way. Redis answers a connection's commands in order, so once the PONG is read the subscription is
    in place and every event published from then on reaches the hub. Without this wait, ``connected`` could be set
    while the SUBSCRIBE still waited to be read by the server (on a cluster the handshake's other reads go to other
    nodes), and events published at once were lost. Bounded by its own clock: redis-py's read timeouts can swallow
    an outer ``asyncio.timeout``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + HANDSHAKE_TIMEOUT_SECONDS
    early: list[Any] = []
    while loop.time() < deadline:
        message = await pubsub.get_message(timeout=min(READ_TIMEOUT_SECONDS, max(0.0, deadline - loop.time())))
        if message is None:
            continue
        if message.get("type") == "pong":
            return early
        if message.get("type") == "message":
            early.append(message["data"])
    raise TimeoutError(f"no answer to PING after SUBSCRIBE in {HANDSHAKE_TIMEOUT_SECONDS:.0f}s")


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
            self._task = asyncio.get_running_loop().create_task(self._read(), name="streaming-hub")
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
            self._dispatch(raw)
        finally:
            self.flush()

    def _dispatch(self, raw: str | bytes) -> None:
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

    def _resync(self) -> None:
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

    # --- the Redis side ---

    async def _read(self) -> None:
        """Read and dispatch until cancelled, or until this task is no longer the hub's reader.

        The second check is needed because a cancellation can be lost: when ``remove`` cancels this task while
        a read's own timeout (redis-py's ``asyncio.timeout`` inside ``get_message``) expires at the same
        moment, redis-py turns the pair into a timeout and returns None. Left running, the old reader would
        dispatch every event a second time beside the reader the next ``subscribe`` starts."""
        delay = RECONNECT_MIN_SECONDS
        lost = False  # a connection was lost since this reader started: events may have been missed
        attempt = 0  # on a cluster, each reconnection tries the next node named (a failed-over primary stays dead)
        while True:
            client = pubsub = None
            try:
                # The client is only built here (no I/O, never starts a server); asyncio.timeout raises TimeoutError,
                # an OSError, so a server that accepts but does not answer counts as lost, like one that refuses.
                client = get_async_redis(subscriber=True, attempt=attempt)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                async with asyncio.timeout(HANDSHAKE_TIMEOUT_SECONDS):
                    await pubsub.subscribe(self.channel)
                    await pubsub.ping()
                    self.public_state = await policy.get_policy().aload(recipients=(policy.PUBLIC,), authors=())
                    self.withheld.clear()  # the state just read knows every suspension and limit
                early = await _subscribed(pubsub)
                if self._task is not asyncio.current_task():
                    return
                self.connected.set()
                if lost:
                    self._resync()
                    lost = False
                if early:
                    for data in early:
                        self._dispatch(data)
                    self.flush()
                delay = RECONNECT_MIN_SECONDS
                idle = 0.0
                pinged: float | None = None  # when the unanswered PING was sent
                while True:
                    message = await pubsub.get_message(timeout=READ_TIMEOUT_SECONDS)
                    if self._task is not asyncio.current_task():
                        return  # replaced or stopped (see the docstring)
                    if message is None:
                        idle += READ_TIMEOUT_SECONDS
                        if pinged is not None and idle >= PONG_TIMEOUT_SECONDS:
                            raise TimeoutError(f"no answer to PING in {PONG_TIMEOUT_SECONDS:.0f}s")
                        if pinged is None and idle >= PING_INTERVAL_SECONDS:
                            async with asyncio.timeout(PONG_TIMEOUT_SECONDS):
                                await pubsub.ping()
                            pinged, idle = asyncio.get_running_loop().time(), 0.0
                        continue
                    # Anything read, the PONG or an event, shows the connection is alive.
                    idle, pinged = 0.0, None
                    if message.get("type") == "message":
                        try:
                            self._dispatch(message["data"])
                            # Events already read from Redis, dispatched in the same pass (see MAX_BURST).
                            for _ in range(MAX_BURST - 1):
                                message = await pubsub.get_message(timeout=0)
                                if message is None or self._task is not asyncio.current_task():
                                    break
                                if message.get("type") == "message":
                                    self._dispatch(message["data"])
                        finally:
                            self.flush()
                        # get_message does not suspend while the connection's read buffer still holds messages
                        # (64 KiB is a burst of ~150 posts), and daphne's send never suspends either: without
                        # this, a burst would fill every queue before any writer ran, and cut off clients that
                        # read perfectly well. Yielding lets the writers these events woke take them first.
                        await asyncio.sleep(0)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                lost = True
                self.connected.clear()
                self.stats.reconnects += 1
                attempt += 1
                logger.warning("Stream subscriber lost Redis (%s); reconnecting in %.1fs.", error, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MAX_SECONDS)
            except Exception:
                # A bug must not silently end every stream of this process: log it and start over.
                lost = True
                self.connected.clear()
                self.stats.reconnects += 1
                logger.exception("Stream subscriber failed; restarting it in %.1fs.", delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RECONNECT_MAX_SECONDS)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                if client is not None:
                    with contextlib.suppress(Exception):
                        await client.aclose()


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

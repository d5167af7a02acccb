"""The per-process stream hub: one Redis subscription shared by many clients, resilient and bounded."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from socialsite import embedded_redis, redis_client
from socialsite.redis_client import get_redis
from socialsite.testing import WAIT_SECONDS
from streaming import hub_reader, matching
from streaming.hub import Hub
from streaming.subscriptions import FALLING_BEHIND, Disconnect
from timelines import events, keys, services, store
from timelines.services import moderation
from timelines.services.publishing import publish
from timelines.tests import policies


async def post(uid: int, message: str, **extra: str) -> int:
    return await asyncio.to_thread(services.post_status, uid=uid, message=message, **extra)


async def next_item(subscription, timeout: float = WAIT_SECONDS):
    return await asyncio.wait_for(subscription.get(), timeout)


async def wait_for(predicate, timeout: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


@pytest.fixture
def people():
    return services.create_user(login="alice", name="Alice"), services.create_user(login="bob", name="Bob")


def test_events_reach_only_the_subscriptions_that_match(people):
    alice, bob = people

    async def scenario():
        hub = Hub()
        of_alice = hub.subscribe(index_keys={matching.author_key(alice)}, matches=lambda e: e["uid"] == alice)
        of_bob = hub.subscribe(index_keys={matching.author_key(bob)}, matches=lambda e: e["uid"] == bob)
        everything = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        status_id = await post(alice, "hello")
        assert (await next_item(of_alice))["id"] == status_id
        assert (await next_item(everything))["id"] == status_id
        await asyncio.to_thread(services.delete_status, uid=alice, status_id=status_id)
        deleted = await next_item(of_alice)
        assert deleted["id"] == status_id and deleted["deleted"] is True
        assert of_bob.queue.empty()
        assert hub.stats.candidates == 4  # bob's subscription was never even considered
        for subscription in (of_alice, of_bob, everything):
            subscription.close()

    asyncio.run(scenario())


def test_many_clients_share_one_redis_subscription(people):
    alice, _ = people

    async def scenario():
        hub = Hub()
        subscriptions = [hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True) for _ in range(50)]
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        assert get_redis().pubsub_numsub(keys.STREAM_CHANNEL) == [(keys.STREAM_CHANNEL, 1)]
        status_id = await post(alice, "to everyone")
        for subscription in subscriptions:
            assert (await next_item(subscription))["id"] == status_id
        for subscription in subscriptions:
            subscription.close()
        await wait_for(lambda: get_redis().pubsub_numsub(keys.STREAM_CHANNEL) == [(keys.STREAM_CHANNEL, 0)])

    asyncio.run(scenario())


def test_closing_the_last_subscription_leaves_no_task_or_subscriber(people):
    async def scenario():
        hub = Hub()
        subscription = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        subscription.close()
        assert hub.subscriptions == set() and hub.index == {}
        # The reader task ends once its cancellation has run.
        await wait_for(lambda: [task for task in asyncio.all_tasks() if task is not asyncio.current_task()] == [])

    asyncio.run(scenario())


def test_a_slow_client_is_cut_off_while_others_keep_up(people):
    alice, _ = people

    async def scenario():
        hub = Hub()
        slow = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True, maxsize=5)
        fast = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True, maxsize=5)
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        received = []
        for i in range(12):
            await post(alice, f"burst {i}")
            received.append(await next_item(fast))
        assert len(received) == 12 and not any(isinstance(item, Disconnect) for item in received)
        assert await next_item(slow) == Disconnect(FALLING_BEHIND)
        assert slow not in hub.subscriptions and slow.queue.empty()
        fast.close()

    asyncio.run(scenario())


def test_a_ready_sink_takes_events_at_once_and_the_queue_keeps_their_order_once_it_declines(people):
    """A stream writer's sink gets events straight from the hub while its client reads; when it declines (the
    client stopped reading), events wait in the queue, and later ones queue behind them instead of overtaking."""
    alice, _ = people

    async def scenario():
        hub = Hub()
        subscription = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
        written: list[int] = []
        ready = True

        def sink(event):
            if ready:
                written.append(event["id"])
            return ready

        subscription.sink = sink
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        first = await post(alice, "straight through")
        await wait_for(lambda: written == [first])
        assert subscription.queue.empty()
        ready = False
        second = await post(alice, "client not reading")
        assert (await next_item(subscription))["id"] == second
        third = await post(alice, "waits in the queue")
        await wait_for(lambda: subscription.queue.qsize() == 1)
        ready = True
        fourth = await post(alice, "behind it, although the client reads again")
        await wait_for(lambda: subscription.queue.qsize() == 2)
        assert written == [first]
        assert [(await next_item(subscription))["id"] for _ in range(2)] == [third, fourth]
        subscription.close()

    asyncio.run(scenario())


def test_a_reader_whose_cancellation_was_lost_stops_and_no_event_arrives_twice(people):
    """Closing the last subscription cancels the hub's reader, but redis-py can swallow that cancellation when
    it coincides with a read's own timeout. The orphaned reader must stop by itself, or the next subscription
    would get every event twice (once from each reader)."""
    alice, _ = people

    async def scenario():
        hub = Hub()
        first = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        orphan = hub._task
        # What a lost cancellation leaves behind: the subscription is gone, its reader still runs.
        hub._task = None
        first.closed = True
        hub.subscriptions.clear()
        hub.index.clear()
        second = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        status_id = await post(alice, "once")
        assert (await next_item(second))["id"] == status_id
        await wait_for(orphan.done)
        # Events reach a subscription in the order they were published: once a later one is in, an earlier
        # duplicate would be too.
        later = await post(alice, "and once more")
        assert (await next_item(second))["id"] == later
        # Each post is two events: its delivery to alice's home (timeline.delivery) and status.created.
        assert second.queue.empty() and hub.stats.events == 4
        second.close()

    asyncio.run(scenario())


def test_an_idle_subscription_outlives_client_read_timeouts(people):
    alice, _ = people

    async def scenario():
        hub = Hub()
        subscription = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        await asyncio.sleep(redis_client.COMMAND_TIMEOUT_SECONDS + 1.5)
        status_id = await post(alice, "still there?")
        assert (await next_item(subscription))["id"] == status_id
        assert hub.stats.reconnects == 0
        subscription.close()

    asyncio.run(scenario())


def test_the_hub_resubscribes_after_its_connection_is_killed(people):
    alice, _ = people

    async def scenario():
        hub = Hub()
        subscription = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        assert sum(server.client_kill_filter(_type="pubsub") for server in redis_client.primaries()) == 1
        await wait_for(lambda: hub.stats.reconnects >= 1 and hub.connected.is_set())
        status_id = await post(alice, "after the kill")
        assert (await next_item(subscription))["id"] == status_id
        subscription.close()

    asyncio.run(scenario())


def test_the_hub_survives_a_redis_restart(settings, tmp_path):
    """On a server of its own, even in the cluster run: what restarts here is the embedded server."""
    directory = tmp_path / "redis"
    settings.REDIS_URL = embedded_redis.ensure_running(directory)
    settings.REDIS_CLUSTER_URL = None
    redis_client.reset()
    try:
        alice = services.create_user(login="alice", name="Alice")

        async def scenario():
            hub = Hub()
            subscription = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
            await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
            await asyncio.to_thread(embedded_redis.stop, directory)
            await wait_for(lambda: not hub.connected.is_set())
            await asyncio.to_thread(embedded_redis.ensure_running, directory)
            await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
            status_id = await post(alice, "back again")
            assert (await next_item(subscription))["id"] == status_id
            subscription.close()

        asyncio.run(scenario())
    finally:
        embedded_redis.stop(directory)
        redis_client.reset()


def test_the_hub_replaces_a_connection_whose_server_stopped_answering(settings, tmp_path, monkeypatch):
    """A paused Redis (SIGSTOP: the connection stays open, nothing answers) is noticed by an unanswered PING; the
    hub's handshakes time out while it stays paused, and it reconnects once the server answers again."""
    monkeypatch.setattr(hub_reader, "PING_INTERVAL_SECONDS", 0.5)
    monkeypatch.setattr(hub_reader, "PONG_TIMEOUT_SECONDS", 1.0)
    monkeypatch.setattr(hub_reader, "HANDSHAKE_TIMEOUT_SECONDS", 1.0)
    directory = tmp_path / "redis"
    settings.REDIS_URL = embedded_redis.ensure_running(directory)
    settings.REDIS_CLUSTER_URL = None
    redis_client.reset()
    server = embedded_redis.pid(directory)
    assert server is not None
    try:
        alice = services.create_user(login="alice", name="Alice")

        async def scenario():
            hub = Hub()
            subscription = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
            await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
            os.kill(server, signal.SIGSTOP)
            try:
                await wait_for(lambda: not hub.connected.is_set())
                failures = hub.stats.reconnects
                await wait_for(lambda: hub.stats.reconnects >= failures + 2)  # handshakes time out
            finally:
                os.kill(server, signal.SIGCONT)
            await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
            status_id = await post(alice, "awake again")
            assert (await next_item(subscription))["id"] == status_id
            subscription.close()

        asyncio.run(scenario())
    finally:
        os.kill(server, signal.SIGCONT)
        embedded_redis.stop(directory)
        redis_client.reset()


def test_a_post_the_policy_keeps_from_the_public_reaches_only_subscriptions_that_are_not_public(
    people, settings, monkeypatch
):
    """The hub asks the per-recipient policy once per event for the public; a subscription made with
    public=False (a live home, which asks for its own viewer) still gets the event."""
    alice, bob = people
    settings.TIMELINES_POLICY = policies.PATH
    monkeypatch.setenv(policies.ENV, policies.refusal(None, alice))

    async def scenario():
        hub = Hub()
        public = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
        private = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True, public=False)
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        hidden = await post(alice, "followers only")
        shown = await post(bob, "everyone")
        assert (await next_item(private))["id"] == hidden
        assert (await next_item(private))["id"] == shown
        assert (await next_item(public))["id"] == shown
        public.close()
        private.close()

    asyncio.run(scenario())


def test_a_faulty_filter_or_event_does_not_stop_the_others(people):
    alice, _ = people

    async def scenario():
        hub = Hub()
        faulty = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: e["missing"])
        healthy = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        await asyncio.to_thread(get_redis().publish, keys.STREAM_CHANNEL, '["not", "a status"]')
        status_id = await post(alice, "still flowing")
        assert (await next_item(healthy))["id"] == status_id
        assert faulty.queue.empty() and hub.stats.decode_errors == 1 and hub.stats.reconnects == 0
        faulty.close()
        healthy.close()

    asyncio.run(scenario())


def test_a_suspended_accounts_posts_leave_public_subscriptions_before_the_policy_is_read_again(people):
    """After ``user.suspended`` the hub re-reads the public's policy state off the event loop; a post of that
    account dispatched before the re-read ends is withheld from public subscriptions all the same (it used to
    slip out to the firehose in that moment)."""
    alice, bob = people
    from_alice = services.post_status(uid=alice, message="published after the suspension")
    from_bob = services.post_status(uid=bob, message="bob's, for everyone")

    async def scenario():
        hub = Hub()
        public = hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True)
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        statuses = [store.statuses.get_status(status_id) for status_id in (from_alice, from_bob)]

        def suspend_then_publish_the_posts() -> None:
            moderation.suspend_user(uid=alice)
            # Right behind the suspension's event: the hub is likely still reading the policy's state again.
            with store.batch.pipeline() as pipe:
                for status in statuses:
                    publish(
                        events.status_created({**status, "id": int(status["id"]), "uid": int(status["uid"])}), pipe=pipe
                    )
                assert store.batch.execute(pipe) == []

        await asyncio.to_thread(suspend_then_publish_the_posts)
        assert (await next_item(public))["id"] == from_bob  # in order: alice's was not offered
        await wait_for(lambda: hub.stats.policy_reloads == 1 and not hub.withheld)
        public.close()

    asyncio.run(scenario())


def test_a_burst_read_in_one_buffer_does_not_overflow_the_queues_of_subscribers_that_read(people):
    """Many events arriving at once (one read buffer) are dispatched ``MAX_BURST`` at a time, with the readers
    given their turn in between: subscribers that read are never cut off for a burst longer than their queue.
    Checked on the event loop's order, not on speed: each reader empties its queue whenever it runs."""
    alice, _ = people
    status_id = services.post_status(uid=alice, message="over and over")
    status = store.statuses.get_status(status_id)
    event = events.status_created({**status, "id": status_id, "uid": alice})
    burst = 10 * hub_reader.MAX_BURST
    queue_size = 2 * hub_reader.MAX_BURST

    async def scenario():
        hub = Hub()
        subscriptions = [
            hub.subscribe(index_keys={matching.ALL}, matches=lambda e: True, maxsize=queue_size) for _ in range(5)
        ]
        await asyncio.wait_for(hub.connected.wait(), WAIT_SECONDS)
        counts = [0] * len(subscriptions)

        async def read(index: int) -> None:
            async for item in subscriptions[index]:
                if isinstance(item, Disconnect):
                    return
                counts[index] += 1

        readers = [asyncio.ensure_future(read(index)) for index in range(len(subscriptions))]

        def publish_burst() -> None:
            with store.batch.pipeline() as pipe:
                for _ in range(burst):
                    publish(event, pipe=pipe)
                assert store.batch.execute(pipe) == []

        await asyncio.to_thread(publish_burst)
        await wait_for(lambda: all(count == burst for count in counts) or hub.stats.cut_off > 0)
        assert hub.stats.cut_off == 0 and counts == [burst] * len(subscriptions)
        for subscription in subscriptions:
            subscription.close()
        for reader in readers:
            reader.cancel()

    asyncio.run(scenario())

"""The sample and filter streams as a client sees them, from a real daphne fed by real Redis pub/sub."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable

import pytest

from socialsite import testing
from socialsite.testing import WAIT_SECONDS
from streaming import filters
from streaming.client import StreamResponse, open_stream
from streaming.loadclient import Listener, close_all, wait_until
from streaming.tests.conftest import SERVER_ENV
from timelines import services, store
from timelines.tests import policies


async def post(uid: int, message: str, **extra: str) -> int:
    return await asyncio.to_thread(services.post_status, uid=uid, message=message, **extra)


async def delete(uid: int, status_id: int) -> None:
    await asyncio.to_thread(services.delete_status, uid=uid, status_id=status_id)


_opened: list[Listener] = []


async def listen(server, kind: str, identifier: str = "tests", **params: str) -> Listener:
    listener = await Listener.open(kind, identifier=identifier, params=params, url=server.url)
    _opened.append(listener)
    return listener


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """Run a test's scenario, closing every stream it opened even when it fails."""

    async def main() -> None:
        try:
            await scenario()
        finally:
            await close_all(_opened)
            _opened.clear()

    asyncio.run(main())


async def received(listener: Listener, count: int, timeout: float = WAIT_SECONDS) -> list[dict]:
    """The first ``count`` messages of ``listener``, waiting for them."""
    assert await wait_until(lambda: len(listener.received) >= count, timeout), listener.messages
    return listener.messages[:count]


async def next_line(response: StreamResponse) -> bytes:
    """The next line that is not a keep-alive."""
    async with asyncio.timeout(WAIT_SECONDS):
        while True:
            line = await response.read_line()
            assert line is not None, "the stream ended"
            if line:
                return line


@pytest.fixture
def people():
    return (
        services.create_user(login="alice", name="Alice"),
        services.create_user(login="bob", name="Bob"),
        services.create_user(login="carol", name="Carol"),
    )


def test_a_stream_is_chunked_json_one_object_per_crlf_line(server, people):
    alice, _, _ = people

    async def scenario():
        response = await open_stream("sample", identifier="tests", params={"percent": "100"}, url=server.url)
        assert response.status == 200
        assert response.headers["content-type"] == "application/json"
        assert response.headers["transfer-encoding"] == "chunked"
        try:
            status_id = await post(alice, "hello", location="51.5,-0.12")
            line = await next_line(response)
            status = json.loads(line)
            # The bytes the stream sent before events were typed: the status as stored, compact, in its stored
            # field order, non-ASCII kept.
            posted = store.statuses.get_status(status_id)["posted"]
            assert (
                line
                == (
                    f'{{"location":"51.5,-0.12","message":"hello","posted":{posted},"id":{status_id},'
                    f'"uid":{alice},"login":"alice","name":"Alice"}}'
                ).encode()
            )
            assert status == {
                "id": status_id,
                "uid": alice,
                "login": "alice",
                "name": "Alice",
                "message": "hello",
                "posted": status["posted"],
                "location": "51.5,-0.12",
            }
        finally:
            await response.aclose()

    run(scenario)


def test_delimited_length_prefixes_each_message_with_its_byte_length(server, people):
    alice, _, _ = people

    async def scenario():
        response = await open_stream(
            "filter", identifier="tests", params={"track": "café"}, url=server.url, delimited=True
        )
        try:
            status_id = await post(alice, "un café, s'il vous plaît")
            length = int(await next_line(response))
            framed = await response.read_exactly(length)
            assert framed.endswith(b"\r\n") and framed.count(b"\r\n") == 1
            assert json.loads(framed)["id"] == status_id
        finally:
            await response.aclose()

    run(scenario)


def test_an_idle_stream_gets_a_keepalive_newline(server):
    async def scenario():
        listener = await listen(server, "sample", percent="100")
        # The test server sends one after each idle second (production: STREAMING_KEEPALIVE_SECONDS = 30).
        assert await wait_until(lambda: listener.keepalives >= 2, timeout=WAIT_SECONDS)
        assert listener.received == [] and not listener.ended

    run(scenario)


def test_a_sample_is_the_same_for_an_identifier_across_reconnects_and_processes(server, people):
    alice, _, _ = people
    buckets = filters.sample_buckets("app-one", 30)

    async def burst(count: int) -> list[int]:
        return [await post(alice, f"status {i}") for i in range(count)]

    async def scenario():
        first = await listen(server, "sample", "app-one", percent="30")
        other = await listen(server, "sample", "app-two", percent="30")
        firehose = await listen(server, "sample", percent="100")
        posted = await burst(100)
        await received(firehose, 100)
        expected = [i for i in posted if i % 100 in buckets]
        assert len(expected) == 30  # consecutive ids: exactly 30 of every 100
        assert await wait_until(lambda: len(first.received) >= 30, WAIT_SECONDS)
        assert first.status_ids() == expected  # the server process computed what this process computes
        assert await wait_until(lambda: len(other.received) >= 30, WAIT_SECONDS)
        assert other.status_ids() != expected
        await first.close()

        again = await listen(server, "sample", "app-one", percent="30")
        posted = await burst(100)
        await received(firehose, 200)
        assert await wait_until(lambda: len(again.received) >= 30, WAIT_SECONDS)
        assert {i % 100 for i in again.status_ids()} == buckets
        assert again.status_ids() == [i for i in posted if i % 100 in buckets]

    run(scenario)


def test_sample_percentages_keep_that_fraction(server, people):
    alice, _, _ = people
    percents = [1, 10, 50, 100]

    async def scenario():
        listeners = [await listen(server, "sample", f"fraction-{p}", percent=str(p)) for p in percents]
        default = await listen(server, "sample", "fraction-default")
        for i in range(200):
            await post(alice, f"status {i}")
        # 200 consecutive ids hold every id % 100 twice, so each sample is exactly its share.
        expected = [2 * p for p in [*percents, filters.DEFAULT_PERCENT]]
        everyone = [*listeners, default]
        # The 100% listener has every post once it has 200, the last one included; the stream sends in order, so
        # once each of the others has its share, nothing more is on its way.
        assert await wait_until(
            lambda: all(len(x.received) >= n for x, n in zip(everyone, expected, strict=True)), WAIT_SECONDS
        )
        assert [len(listener.received) for listener in everyone] == expected

    run(scenario)


def test_track_matches_every_word_of_a_phrase_ignoring_case_and_punctuation(server, people):
    alice, _, _ = people

    async def scenario():
        listener = await listen(server, "filter", track="redis django,hello")
        await post(alice, "only redis here")
        wanted = [
            await post(alice, "I like Django, and REDIS!"),
            await post(alice, "(hello) world"),
            await post(alice, "#django meets #redis"),
        ]
        await post(alice, "djangoredis hellothere")
        marker = await post(alice, "hello marker")
        messages = await received(listener, 4)
        assert [m["id"] for m in messages] == [*wanted, marker]

    run(scenario)


def test_follow_matches_posts_by_or_mentioning_a_login(server, people):
    alice, bob, carol = people

    async def scenario():
        listener = await listen(server, "filter", follow="@Bob")
        await post(alice, "nothing about him")
        by_bob = await post(bob, "bob speaking")
        mention = await post(carol, "thanks @bob!")
        await post(carol, "bobby is someone else, and so is @bobby")
        last = await post(bob, "bob again")
        messages = await received(listener, 3)
        assert [m["id"] for m in messages] == [by_bob, mention, last]

    run(scenario)


def test_follow_also_matches_replies_to_them_their_reposts_and_reposts_of_their_posts(server, people):
    """As Twitter's follow; a repost arrives as its own status with the original under "repost_of", and its
    deletion reaches the clients it reached."""
    alice, bob, carol = people

    async def scenario():
        listener = await listen(server, "filter", follow="alice")
        original = await post(bob, "not by alice")
        reply = await asyncio.to_thread(services.post_status, uid=carol, message="re", in_reply_to=original)
        by_alice = await post(alice, "alice here")
        reply_to_alice = await asyncio.to_thread(services.post_status, uid=bob, message="nice", in_reply_to=by_alice)
        await asyncio.to_thread(services.repost_status, uid=carol, status_id=by_alice)
        await asyncio.to_thread(services.repost_status, uid=alice, status_id=original)
        messages = await received(listener, 4)
        assert [m["id"] for m in messages[:2]] == [by_alice, reply_to_alice]
        reposted = {m["repost_of"]["id"]: m for m in messages[2:]}
        assert set(reposted) == {by_alice, original} and reply not in [m["id"] for m in messages]
        assert reposted[by_alice]["uid"] == carol and reposted[by_alice]["repost_of"]["message"] == "alice here"
        await asyncio.to_thread(services.undo_repost, uid=carol, status_id=by_alice)
        [deleted] = (await received(listener, 5))[4:]
        assert deleted == {"id": reposted[by_alice]["id"], "deleted": True}

    run(scenario)


def test_locations_match_statuses_inside_a_box(server, people):
    alice, _, _ = people

    async def scenario():
        # Western Europe, and a box around New Zealand.
        listener = await listen(server, "filter", locations="-10,35,30,60,165,-48,179,-34")
        london = await post(alice, "tea", location="51.5,-0.12")
        await post(alice, "bagel", location="40.7,-74")
        await post(alice, "nowhere")
        wellington = await post(alice, "flat white", location="-41.29,174.78")
        # A last match: the stream keeps the order of the posts, so had the others matched, they would be in
        # before it.
        marker = await post(alice, "a last one in Berlin", location="52.52,13.4")
        messages = await received(listener, 3)
        assert [m["id"] for m in messages] == [london, wellington, marker]

    run(scenario)


def test_the_books_location_parameter_is_accepted(server, people):
    alice, _, _ = people

    async def scenario():
        listener = await listen(server, "filter", location="-10,35,30,60")
        paris = await post(alice, "croissant", location="48.85,2.35")
        assert [m["id"] for m in await received(listener, 1)] == [paris]

    run(scenario)


def test_predicates_are_ored(server, people):
    alice, bob, carol = people

    async def scenario():
        listener = await listen(server, "filter", track="redis", follow="carol", locations="-10,35,30,60")
        by_word = await post(alice, "redis streams")
        by_login = await post(carol, "carol's day")
        by_place = await post(bob, "rain", location="51.5,-0.12")
        await post(bob, "none of the above", location="40.7,-74")
        marker = await post(alice, "redis marker")
        messages = await received(listener, 4)
        assert [m["id"] for m in messages] == [by_word, by_login, by_place, marker]

    run(scenario)


def test_a_deletion_reaches_only_the_clients_that_were_sent_the_post(server, people):
    alice, _, _ = people
    # The first status after the flush is id 1: find one identifier whose 1% sample keeps it, and one whose sample
    # keeps id 4 instead (posted last, so that what that client received before it is known to be everything).
    keeps = next(f"keeper-{i}" for i in range(1000) if 1 in filters.sample_buckets(f"keeper-{i}", 1))
    skips = next(f"skipper-{i}" for i in range(10000) if filters.sample_buckets(f"skipper-{i}", 1) == {4})

    async def scenario():
        tracking = await listen(server, "filter", track="redis")
        elsewhere = await listen(server, "filter", track="django")
        sampled = await listen(server, "sample", keeps, percent="1")
        unsampled = await listen(server, "sample", skips, percent="1")
        status_id = await post(alice, "redis is fast")
        assert status_id == 1
        await delete(alice, status_id)
        for listener in (tracking, sampled):
            messages = await received(listener, 2)
            assert messages[0]["id"] == status_id and "deleted" not in messages[0]
            assert messages[1] == {"id": status_id, "deleted": True}
        marker = await post(alice, "django marker")
        assert [m["id"] for m in await received(elsewhere, 1)] == [marker]
        again = await post(alice, "redis again")
        assert (await received(tracking, 3))[2]["id"] == again  # nothing else reached it in between
        for_the_skipper = await post(alice, "the skipper's sample keeps this one")
        assert for_the_skipper == 4
        assert [m["id"] for m in await received(unsampled, 1)] == [for_the_skipper]
        assert len(unsampled.received) == 1  # neither the post nor its deletion came before it

    run(scenario)


def test_posts_the_policy_keeps_from_the_public_never_reach_a_public_stream(people):
    """A server whose policy refuses alice's posts to the public: neither they nor their deletion reach the
    firehose, while bob's do."""
    alice, bob, _ = people
    env = {**os.environ, **SERVER_ENV, "SOCIALSITE_POLICY": policies.PATH, policies.ENV: policies.refusal(None, alice)}

    async def scenario(url: str):
        listener = await Listener.open("sample", identifier="tests", params={"percent": "100"}, url=url)
        _opened.append(listener)
        hidden = await post(alice, "only for my followers")
        await delete(alice, hidden)
        shown = await post(bob, "for everyone")
        last = await post(bob, "and a last one")
        # In order: had alice's post or its deletion been sent, it would have come before these.
        assert [m["id"] for m in await received(listener, 2)] == [shown, last]

    with testing.daphne(env, probe="/statuses/hub.json", start_timeout=30) as (url, _):
        run(lambda: scenario(url))

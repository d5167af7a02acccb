"""What an open page missed is not missed for good (issue 19, "an open page shows exactly what a reload would
show"): a page whose process's hub lost Redis (pub/sub drops what is published meanwhile) or that reconnects
itself gets its content again as a reload shows it; an edited direct message swaps in on its open conversation;
the edit and the deletion of a reposted post reach the pages that show the repost; and the end of a suspension
brings its account's posts back to open pages, as a reload does.

The pages are the real ASGI applications of ``/live/home``, ``/live/list`` and ``/live/me`` with the real hub on
a real Redis (``streaming.tests.test_live.LivePage``)."""

from __future__ import annotations

import asyncio
import json

import pytest

from socialsite import redis_client
from streaming import hub_reader, live
from streaming.hub import get_hub
from streaming.tests.test_live import LivePage, viewer
from streaming.tests.test_live import people as people  # a fixture
from timelines import events as timeline_events
from timelines import services
from timelines.services import moderation
from timelines.services.publishing import publish


async def call(function, /, **kwargs):
    return await asyncio.to_thread(function, **kwargs)


async def until(predicate) -> None:
    async with asyncio.timeout(10):
        while not predicate():
            await asyncio.sleep(0.02)


async def next_named(page: LivePage, name: str) -> dict:
    """The next event called ``name``, skipping the others (counts, keep-alives)."""
    while True:
        event = await page.next_event(snapshots=True)
        if event["event"] in (name, "end"):
            return event


def test_a_page_whose_hub_lost_redis_gets_its_timeline_again_without_what_was_deleted_meanwhile(people, monkeypatch):
    alice, bob, _ = people  # alice follows bob
    monkeypatch.setattr(hub_reader, "RECONNECT_MIN_SECONDS", 1.0)  # a window in which the hub is away
    kept, gone, edited = (services.post_status(uid=bob, message=f"post {n}") for n in range(3))

    async def scenario() -> None:
        page = LivePage(viewer(alice))
        assert await page.open() == 200
        await page.until_live()
        hub = get_hub()
        assert sum(server.client_kill_filter(_type="pubsub") for server in redis_client.primaries()) == 1
        await until(lambda: not hub.connected.is_set())
        # Published while the hub is away: never delivered by pub/sub.
        await call(services.delete_status, uid=bob, status_id=gone)
        await call(services.edit_status, uid=bob, status_id=edited, message="post 2, fixed")
        assert not hub.connected.is_set()
        snapshot = await next_named(page, "timeline")
        assert [entry["id"] for entry in snapshot["entries"]] == [edited, kept]
        assert ">post 2, fixed</p>" in snapshot["entries"][0]["html"]
        assert (await next_named(page, "notifications"))["unread"] == 0
        assert hub.stats.resyncs == 1
        # And the page carries on live.
        later = await call(services.post_status, uid=bob, message="after the resync")
        assert (await next_named(page, "post"))["id"] == later
        await page.close()

    asyncio.run(scenario())


def test_an_edited_message_swaps_in_on_its_open_conversation_and_nowhere_else(people):
    alice, bob, carol = people

    async def scenario() -> None:
        status_id, conversation = await call(services.send_message, uid=bob, message="lunch at noen?", to=(alice,))
        thread = LivePage(viewer(alice), query=f"conversation={conversation}", app=live.live_me)
        inbox = LivePage(viewer(alice), app=live.live_me)
        home = LivePage(viewer(alice))
        strangers = LivePage(viewer(carol), app=live.live_me)
        for page in (thread, inbox, home, strangers):
            assert await page.open() == 200
            await page.until_live()
        await call(services.edit_status, uid=bob, status_id=status_id, message="lunch at noon?")
        swapped = await next_named(thread, "edited")
        assert (swapped["id"], swapped["conversation"]) == (status_id, conversation)
        assert ">lunch at noon?</p>" in swapped["html"] and ">Edited <time" in swapped["html"]
        # The list of conversations (and any other page of alice's) learns of it, without the message's HTML.
        for page in (inbox, home):
            assert await next_named(page, "edited") == {
                "event": "edited",
                "last_event_id": None,
                "id": status_id,
                "conversation": conversation,
            }
        # carol, no participant, gets nothing: her next event is the marker published after the edit.
        await asyncio.to_thread(publish, timeline_events.notifications_changed(uid=carol, unread=7))
        assert (await strangers.next_event())["event"] == "notifications"
        for page in (thread, inbox, home, strangers):
            await page.close()

    asyncio.run(scenario())


def test_a_conversation_that_reconnects_gets_its_messages_as_a_reload_shows_them(people):
    alice, bob, _ = people
    first, conversation = services.send_message(uid=bob, message="one", to=(alice,))
    second, _ = services.send_message(uid=bob, message="two", conversation_id=conversation)
    services.delete_status(uid=bob, status_id=first)
    services.edit_status(uid=bob, status_id=second, message="two, edited")

    async def scenario() -> None:
        page = LivePage(viewer(alice), query=f"conversation={conversation}&resync=1", app=live.live_me)
        assert await page.open() == 200
        blocks = await page.until_live()
        assert [block["event"] for block in blocks] == ["thread", "notifications", "messages"]
        thread = json.loads(blocks[0]["data"])
        assert [entry["id"] for entry in thread["entries"]] == [second] and thread["complete"] is True
        assert ">two, edited</p>" in thread["entries"][0]["html"]
        assert json.loads(blocks[2]["data"])["unread"] == 1
        await page.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("opened", ["before the repost", "after the repost"])
def test_the_edit_and_the_deletion_of_a_reposted_post_reach_the_home_and_list_showing_the_repost(people, opened):
    alice, bob, carol = people  # alice follows bob, not carol; bob reposts carol; bob is on alice's list
    list_id = services.create_user_list(uid=alice, name="close")
    services.follow_user_list(uid=alice, other_uid=bob, list_id=list_id)
    original = services.post_status(uid=carol, message="carol's post")

    async def scenario() -> None:
        home = LivePage(viewer(alice))
        listed = LivePage(viewer(alice), query=f"list={list_id}", app=live.live_list)
        if opened == "after the repost":
            await call(services.repost_status, uid=bob, status_id=original)
        for page in (home, listed):
            assert await page.open() == 200
            await page.until_live()
        if opened == "before the repost":
            await call(services.repost_status, uid=bob, status_id=original)
            for page in (home, listed):
                assert "carol&#x27;s post" in (await next_named(page, "post"))["html"]
        await call(services.edit_status, uid=carol, status_id=original, message="carol's post, fixed")
        for page in (home, listed):
            update = await next_named(page, "update")
            assert update["id"] == original and "carol&#x27;s post, fixed" in update["html"]
        await call(services.delete_status, uid=carol, status_id=original)
        for page in (home, listed):
            assert (await next_named(page, "delete"))["id"] in {original, original + 1}
        for page in (home, listed):
            await page.close()

    asyncio.run(scenario())


def test_the_end_of_a_suspension_brings_the_accounts_posts_back_to_an_open_home(people):
    alice, bob, _ = people
    status_id = services.post_status(uid=bob, message="before the suspension")

    async def scenario() -> None:
        page = LivePage(viewer(alice), query="since_id=0")
        assert await page.open() == 200
        assert [int(block["id"]) for block in await page.until_live()] == [status_id]
        await call(moderation.suspend_user, uid=bob)
        assert (await next_named(page, "suspend"))["uid"] == bob
        await call(moderation.unsuspend_user, uid=bob)
        snapshot = await next_named(page, "timeline")
        assert [entry["id"] for entry in snapshot["entries"]] == [status_id]
        # The page forgot the suspension: bob's next post shows.
        later = await call(services.post_status, uid=bob, message="after the suspension")
        assert (await next_named(page, "post"))["id"] == later
        await page.close()

    asyncio.run(scenario())

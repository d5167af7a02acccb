"""The live home timeline (server-sent events): what reaches an open home page, in which order, and what not.

The consumer runs under Channels' ApplicationCommunicator against the real Redis and the real stream hub.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from channels.testing import ApplicationCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from accounts.models import User
from accounts.services import sign_up
from socialsite.testing import WAIT_SECONDS
from streaming import live
from streaming.hub import get_hub
from timelines import events as timeline_events
from timelines import services
from timelines.keys.channels import hub_home
from timelines.services.publishing import publish
from timelines.tests import policies


def viewer(uid: int) -> User:
    """An account as the auth middleware hands it over; unsaved, as the consumer only reads ``uid``."""
    return User(username=f"user{uid}", uid=uid)


class LivePage:
    """One open home page: sends the request, then reads the event stream as a browser would."""

    def __init__(
        self, user: Any, *, query: str = "", headers: list[tuple[bytes, bytes]] | None = None, app: Any = None
    ) -> None:
        app = app or live.live_home
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": "GET",
            "path": "/live/list" if app is live.live_list else "/live/home",
            "query_string": query.encode(),
            "headers": headers or [],
            "user": user,
        }
        self.communicator = ApplicationCommunicator(app, scope)
        self.buffer = ""
        self.status = 0

    async def open(self) -> int:
        await self.communicator.send_input({"type": "http.request", "body": b""})
        start = await self.communicator.receive_output(WAIT_SECONDS)
        self.status = start["status"]
        return self.status

    async def next_block(self, timeout: float = WAIT_SECONDS) -> dict[str, str]:
        """The next event or comment, as its fields (``{"comment": ...}`` for a comment)."""
        while "\n\n" not in self.buffer:
            message = await self.communicator.receive_output(timeout)
            self.buffer += message.get("body", b"").decode()
            if not message.get("more_body") and "\n\n" not in self.buffer:
                return {"end": "1"}
        block, self.buffer = self.buffer.split("\n\n", 1)
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            name, _, value = line.partition(":")
            fields[name or "comment"] = value.strip()
        return fields

    async def until_live(self) -> list[dict[str, str]]:
        """Everything sent before the stream went live (the catch-up), then wait for the hub's subscription."""
        caught_up = []
        while True:
            block = await self.next_block()
            if block.get("comment") == "live":
                break
            if "event" in block:
                caught_up.append(block)
        await asyncio.wait_for(get_hub().connected.wait(), WAIT_SECONDS)
        return caught_up

    async def next_event(self, timeout: float = WAIT_SECONDS, *, snapshots: bool = False) -> dict[str, Any]:
        """The next event as ``{"event": name, "last_event_id": id or None, **data}``; ``{"event": "end"}`` when the
        stream ends. ``event: timeline`` (the timeline read again) only with ``snapshots``: on a cluster, the
        ``relations.changed`` of a fixture's follow may reach the hub after the page opened, and bring one."""
        while True:
            block = await self.next_block(timeout)
            if block.get("event") == "timeline" and not snapshots:
                continue
            if "event" in block:
                return {"event": block["event"], "last_event_id": block.get("id"), **json.loads(block["data"])}
            if "end" in block:
                return {"event": "end"}

    async def close(self) -> None:
        await self.communicator.send_input({"type": "http.disconnect"})
        await self.communicator.wait(timeout=WAIT_SECONDS)


async def until(condition: Any) -> None:
    """Wait for ``condition()`` to hold (checked on the event loop the hub runs on), up to ``WAIT_SECONDS``."""
    async with asyncio.timeout(WAIT_SECONDS):
        while not condition():
            await asyncio.sleep(0.02)


async def post(uid: int, message: str) -> int:
    return await asyncio.to_thread(services.post_status, uid=uid, message=message)


@pytest.fixture
def people() -> tuple[int, int, int]:
    """alice follows bob; carol is a stranger to her."""
    alice = services.create_user(login="alice", name="Alice Liddell")
    bob = services.create_user(login="bob", name="Bob Builder")
    carol = services.create_user(login="carol", name="Carol Danvers")
    services.follow_user(uid=alice, other_uid=bob)
    return alice, bob, carol


def test_anonymous_visitors_and_bad_cursors_are_refused():
    async def scenario() -> None:
        assert await LivePage(AnonymousUser()).open() == 403
        for bad in ("abc", "%C2%B2", "9" * 5000, "-1"):
            assert await LivePage(viewer(1), query=f"since_id={bad}").open() == 400

    asyncio.run(scenario())


def test_posts_by_followed_people_and_by_me_arrive_and_deletions_follow(people):
    alice, bob, carol = people

    async def scenario() -> None:
        page = LivePage(viewer(alice))
        assert await page.open() == 200
        assert await page.until_live() == []
        await post(carol, "a stranger speaks")
        from_bob = await post(bob, "bob <b>bold</b> & live")
        event = await page.next_event()
        assert event["event"] == "post" and event["id"] == from_bob and event["last_event_id"] == str(from_bob)
        assert "bob &lt;b&gt;bold&lt;/b&gt; &amp; live" in event["html"] and "<b>" not in event["html"]
        assert "Delete" not in event["html"]  # never on someone else's post
        mine = await post(alice, "my own words")
        event = await page.next_event()
        assert event["id"] == mine and ">Delete<" in event["html"]
        await asyncio.to_thread(services.delete_status, uid=bob, status_id=from_bob)
        assert await page.next_event() == {"event": "delete", "last_event_id": None, "id": from_bob}
        await page.close()

    asyncio.run(scenario())


def article(html: str, status_id: int) -> str:
    """The ``<article>`` of one status in ``html``, without what only a page request renders (CSRF inputs) and
    without the ``fresh`` highlight only live posts get."""
    found = re.search(rf'<article class="status[^"]*" id="status-{status_id}".*?</article>', html, re.DOTALL)
    assert found, f"no article for status {status_id}"
    text = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]*">', "", found.group(0))
    return text.replace('class="status fresh"', 'class="status"')


async def post_event(page: LivePage, status_id: int, *, earlier: int | None = None) -> dict[str, Any]:
    """The ``post`` event of ``status_id``, past notices (a mention raises an unread count; on a cluster, the notice
    of a fixture's follow may reach the hub after the page opened) and past ``earlier``, posted just before the
    page opened: on a cluster its event may still be crossing the cluster bus to the hub's node (the browser
    ignores ids it already shows)."""
    while (event := await page.next_event()).get("id") != status_id or event["event"] != "post":
        assert event["event"] == "notifications" or event["id"] == earlier, event
    return event


@pytest.mark.django_db
def test_a_live_post_is_the_html_the_page_shows_to_its_author_and_to_a_follower():
    """Rendered once per event for every viewer, a live post still carries Like and Repost for a follower and
    Delete for its author, exactly as their home pages show it; so does the catch-up after a reconnect."""
    alice = sign_up(login="alice", name="Alice Liddell", password=None)
    bob = sign_up(login="bob", name="Bob Builder", password=None)
    services.follow_user(uid=alice.uid, other_uid=bob.uid)
    before = services.post_status(uid=bob.uid, message="already on the page")

    async def scenario() -> tuple[int, dict[int, str], dict[int, str]]:
        pages = {user.uid: LivePage(user) for user in (alice, bob)}
        for page in pages.values():
            assert await page.open() == 200
            await page.until_live()
        status_id = await post(bob.uid, "Live or loaded, the same <b>page</b> for @alice #same")
        live_html = {uid: (await post_event(page, status_id, earlier=before))["html"] for uid, page in pages.items()}
        for page in pages.values():
            await page.close()
        caught_up = {}
        for user in (alice, bob):
            page = LivePage(user, query=f"since_id={before}")
            await page.open()
            [block] = await page.until_live()
            caught_up[user.uid] = json.loads(block["data"])["html"]
            await page.close()
        return status_id, live_html, caught_up

    status_id, live_html, caught_up = asyncio.run(scenario())
    for user in (alice, bob):
        client = Client()
        client.force_login(user)
        shown = article(client.get("/").content.decode(), status_id)
        assert article(live_html[user.uid], status_id) == shown
        assert article(caught_up[user.uid], status_id) == shown
    assert ">Like<" in shown and ">Repost<" in shown and ">Delete<" in shown  # bob's own page
    assert ">Like<" in live_html[alice.uid] and ">Delete<" not in live_html[alice.uid]


def test_a_post_is_rendered_once_for_every_follower_and_once_for_its_author(people):
    """The hub hands one event to every live home; its HTML is kept on it: one render for all the followers, a
    second for its author's own page (with Delete), whatever the number of viewers."""
    alice, bob, carol = people
    services.follow_user(uid=carol, other_uid=bob)

    async def scenario() -> None:
        pages = [LivePage(viewer(uid)) for uid in (alice, carol, bob)]
        for page in pages:
            assert await page.open() == 200
            await page.until_live()
        # Another subscription of the same hub is handed the very event object the pages were.
        onlooker = get_hub().subscribe(index_keys={hub_home(alice)}, matches=lambda event: True, public=False)
        status_id = await post(bob, "one render for all")
        shown = [(await post_event(page, status_id))["html"] for page in pages]
        event = await asyncio.wait_for(onlooker.get(), WAIT_SECONDS)
        onlooker.close()
        assert event["id"] == status_id
        assert {key for key in event.cache if isinstance(key, tuple)} == {("html", False, "/"), ("html", True, "/")}
        assert shown[0] == shown[1] != shown[2]
        for page in pages:
            await page.close()

    asyncio.run(scenario())


def test_the_stream_catches_up_from_the_page_and_a_reconnect_gets_what_a_reload_shows(people):
    """A page that opens gets the posts newer than its newest; one that reconnects (``?resync=1``, or an
    ``EventSource``'s own ``Last-Event-ID``) may have missed deletions and edits too, and gets the timeline as a
    reload shows it, and the header's counts."""
    alice, bob, _ = people
    on_page = [services.post_status(uid=bob, message=f"seen {i}") for i in range(3)]
    after_render = [services.post_status(uid=bob, message=f"missed {i}") for i in range(2)]

    async def scenario() -> None:
        page = LivePage(viewer(alice), query=f"since_id={on_page[-1]}")
        assert await page.open() == 200
        caught_up = await page.until_live()
        assert [int(block["id"]) for block in caught_up] == after_render  # oldest first: each goes on top
        await page.close()

        # While the page was away: a post it shows was deleted, another edited.
        await asyncio.to_thread(services.delete_status, uid=bob, status_id=on_page[0])
        await asyncio.to_thread(services.edit_status, uid=bob, status_id=on_page[1], message="seen 1, fixed")
        newest = str(after_render[-1]).encode()
        for reconnect in (
            LivePage(viewer(alice), query=f"since_id={after_render[-1]}&resync=1"),
            LivePage(viewer(alice), query=f"since_id={on_page[-1]}", headers=[(b"last-event-id", newest)]),
        ):
            assert await reconnect.open() == 200
            blocks = await reconnect.until_live()
            assert [block["event"] for block in blocks] == ["timeline", "notifications", "messages"]
            entries = json.loads(blocks[0]["data"])["entries"]
            assert [entry["id"] for entry in entries] == [*reversed(after_render), on_page[2], on_page[1]]
            assert ">seen 1, fixed</p>" in entries[-1]["html"]
            await reconnect.close()

    asyncio.run(scenario())


def test_someone_followed_after_the_page_opened_is_on_the_page_at_once_and_then_flows(people):
    """The follow copies carol's posts into alice's home and says so (a reset): the page gets its timeline as a
    reload shows it, carol's earlier post included; her next post is delivered to alice's home and flows."""
    alice, _, carol = people
    earlier = services.post_status(uid=carol, message="before the follow")

    async def scenario() -> None:
        page = LivePage(viewer(alice))
        await page.open()
        await page.until_live()
        await asyncio.to_thread(services.follow_user, uid=alice, other_uid=carol)
        # On a cluster the fixture's own follow may be announced late, with a snapshot of its own (still empty).
        while (event := await page.next_event(snapshots=True))["event"] != "timeline" or not event["entries"]:
            pass
        assert [entry["id"] for entry in event["entries"]] == [earlier] and event["complete"] is True
        from_carol = await post(carol, "hello new follower")
        while (event := await page.next_event())["event"] != "post":
            pass
        assert event["id"] == from_carol
        await page.close()

    asyncio.run(scenario())


def test_closing_the_page_frees_its_subscription(people):
    alice, _, _ = people

    async def scenario() -> None:
        page = LivePage(viewer(alice))
        await page.open()
        await page.until_live()
        hub = get_hub()
        assert len(hub.subscriptions) == 1
        await page.close()
        assert hub.subscriptions == set()

    asyncio.run(scenario())


def test_an_idle_stream_sends_keep_alives(people, settings):
    """The live home keeps alive on the streaming API's setting (STREAMING_KEEPALIVE_SECONDS)."""
    alice, _, _ = people
    settings.STREAMING_KEEPALIVE_SECONDS = 0.2

    async def scenario() -> None:
        page = LivePage(viewer(alice))
        await page.open()
        await page.until_live()
        # On a cluster the fixture's follow may be announced late: the page reads its timeline again first.
        while (block := await page.next_block()).get("event") == "timeline":
            pass
        assert block == {"comment": "keep-alive"}
        await page.close()

    asyncio.run(scenario())


def test_the_policy_keeps_a_post_out_of_a_refused_viewers_live_home(people, settings, monkeypatch):
    """The live home asks the per-recipient policy (timelines.policy) for its own viewer."""
    alice, bob, carol = people
    services.follow_user(uid=carol, other_uid=bob)
    settings.TIMELINES_POLICY = policies.PATH
    monkeypatch.setenv(policies.ENV, policies.refusal(alice, bob))  # alice may not receive bob's posts

    async def scenario() -> None:
        refused, allowed = LivePage(viewer(alice)), LivePage(viewer(carol))
        for page in (refused, allowed):
            assert await page.open() == 200
            await page.until_live()
        status_id = await post(bob, "not for alice")
        assert (await allowed.next_event())["id"] == status_id
        # alice's own post comes next on her page: bob's was never sent to it.
        own = await post(alice, "my own words")
        assert (await refused.next_event())["id"] == own
        for page in (refused, allowed):
            await page.close()

    asyncio.run(scenario())


def test_a_repost_of_someone_the_viewer_blocks_or_mutes_stays_out_of_their_live_home(people):
    """The repost's original author is judged too, even when the viewer does not follow them."""
    alice, bob, carol = people
    dave = services.create_user(login="dave", name="Dave")
    services.block_user(uid=alice, other_uid=carol)
    services.mute_user(uid=alice, other_uid=dave)
    blocked = services.post_status(uid=carol, message="from someone alice blocks")
    muted = services.post_status(uid=dave, message="from someone alice mutes")

    async def scenario() -> None:
        page = LivePage(viewer(alice))
        assert await page.open() == 200
        await page.until_live()
        for original in (blocked, muted):
            await asyncio.to_thread(services.repost_status, uid=bob, status_id=original)
        own = await post(alice, "my own words")
        # Her own post comes next: neither repost was sent.
        while (event := await page.next_event())["event"] != "post":
            pass
        assert event["id"] == own, event
        await page.close()

    asyncio.run(scenario())


def test_a_block_or_an_unfollow_applies_to_an_open_live_home_at_once(people):
    """Not at the page's next refresh of whom it follows: the next post of the person who blocked the viewer,
    or whom the viewer unfollowed, is not sent."""
    alice, bob, carol = people
    services.follow_user(uid=alice, other_uid=carol)
    services.set_private(uid=carol, private=True)

    async def scenario() -> None:
        page = LivePage(viewer(alice))
        assert await page.open() == 200
        await page.until_live()
        await asyncio.to_thread(services.block_user, uid=bob, other_uid=alice)
        await asyncio.to_thread(services.unfollow_user, uid=alice, other_uid=carol)
        await post(bob, "after the block")
        await post(carol, "after the unfollow, for my followers")
        own = await post(alice, "my own words")
        while (event := await page.next_event())["event"] != "post":
            pass
        assert event["id"] == own, event
        await page.close()

    asyncio.run(scenario())


def test_a_post_arriving_while_the_page_reads_its_timeline_again_follows_the_snapshot(people):
    """A relations.changed event (here: one published late, as a cluster's bus may deliver the follow's) makes
    the page read its timeline again; a post delivered meanwhile is held back and sent after the snapshot, never
    dropped."""
    alice, bob, _ = people

    async def scenario() -> None:
        page = LivePage(viewer(alice))
        assert await page.open() == 200
        await page.until_live()

        def relations_then_post() -> int:
            publish(timeline_events.relations_changed(uid=alice, other=bob))
            return services.post_status(uid=bob, message="right behind the event")

        status_id = await asyncio.to_thread(relations_then_post)
        seen = []
        while (event := await page.next_event(snapshots=True))["event"] == "timeline":
            seen.append(event)
        assert seen and event["event"] == "post" and event["id"] == status_id
        await page.close()

    asyncio.run(scenario())

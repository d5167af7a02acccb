"""Live list pages (``/live/list?list=<id>``): a list's owner sees on its open page what the delivery writes to the
list's timeline; nobody else's page follows it.

The consumer runs under Channels' ApplicationCommunicator against the real Redis and the real stream hub (see
``test_live``).
"""

from __future__ import annotations

import asyncio

import pytest
from django.test import Client

from accounts.services import sign_up
from streaming import live
from streaming.tests.test_live import LivePage, post, viewer
from timelines import services


def open_list(uid: int, list_id: int | str) -> LivePage:
    """An open list page (made on the running loop)."""
    return LivePage(viewer(uid), query=f"list={list_id}&since_id=0", app=live.live_list)


@pytest.fixture
def close_friends() -> tuple[int, int, int, int]:
    """alice's list "close" holds bob; carol is not in it."""
    alice = services.create_user(login="alice", name="Alice")
    bob = services.create_user(login="bob", name="Bob")
    carol = services.create_user(login="carol", name="Carol")
    list_id = services.create_user_list(uid=alice, name="close")
    services.follow_user_list(uid=alice, other_uid=bob, list_id=list_id)
    return alice, bob, carol, list_id


def test_the_owners_open_list_gets_its_members_posts_and_deletions(close_friends):
    alice, bob, carol, list_id = close_friends

    async def scenario() -> None:
        page = open_list(alice, list_id)
        assert await page.open() == 200
        await page.until_live()
        await post(carol, "not in the list")
        from_bob = await post(bob, "in the list")
        event = await page.next_event()
        assert event["event"] == "post" and event["id"] == from_bob and "in the list" in event["html"]
        await asyncio.to_thread(services.delete_status, uid=bob, status_id=from_bob)
        while (event := await page.next_event())["event"] != "delete":
            pass
        assert event["id"] == from_bob
        await page.close()

    asyncio.run(scenario())


def test_adding_a_member_puts_their_posts_on_the_open_list_at_once(close_friends):
    alice, _, carol, list_id = close_friends
    earlier = services.post_status(uid=carol, message="before she was added")

    async def scenario() -> None:
        page = open_list(alice, list_id)
        assert await page.open() == 200
        await page.until_live()
        await asyncio.to_thread(services.follow_user_list, uid=alice, other_uid=carol, list_id=list_id)
        while (event := await page.next_event(snapshots=True))["event"] != "timeline" or not event["entries"]:
            pass
        assert [entry["id"] for entry in event["entries"]] == [earlier]
        await page.close()

    asyncio.run(scenario())


def test_only_the_owner_follows_a_list_live(close_friends):
    alice, bob, _, list_id = close_friends

    async def scenario() -> None:
        assert await open_list(bob, list_id).open() == 403
        assert await open_list(alice, 999_999).open() == 404
        assert await open_list(alice, "x").open() == 400
        assert await open_list(alice, "").open() == 400

    asyncio.run(scenario())


@pytest.mark.django_db
def test_the_list_page_is_live_for_its_owner_only():
    alice = sign_up(login="alice", name="Alice", password=None)
    bob = sign_up(login="bob", name="Bob", password=None)
    list_id = services.create_user_list(uid=alice.uid, name="close")
    pages = {}
    for user in (alice, bob):
        client = Client()
        client.force_login(user)
        pages[user.uid] = client.get(f"/lists/{list_id}").content.decode()
    assert f'data-live-url="/live/list?list={list_id}&amp;since_id=0&amp;rendered="' in pages[alice.uid]
    assert "data-live-url" not in pages[bob.uid]

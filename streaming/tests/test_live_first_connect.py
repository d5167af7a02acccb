"""A live page's first connection (issue 19, "an open page shows exactly what a reload would show"): what was
deleted, hidden or edited between the page's render and its stream's first connection reaches it too. The page's
live URL carries what it was rendered with (``timelines.views.live_marks.rendered_mark``); the stream compares it
with the timeline read for its catch-up and sends the first page as a reload shows it when they differ, and the
plain catch-up (only the newer posts) when they do not.

The pages are the real ASGI application of ``/live/home`` with the real hub on a real Redis."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import urlencode

from streaming.tests.test_live import LivePage, viewer
from streaming.tests.test_live import people as people  # a fixture
from timelines import limits, selectors, services
from timelines.views.live_marks import rendered_mark


def rendered_query(uid: int) -> str:
    """The query of the home page's live URL, made as the home view makes it from the page it renders."""
    page = selectors.get_status_messages(uid=uid, timeline="home", count=limits.DEFAULT_PAGE_SIZE)
    newest = page[0]["id"] if page else 0
    return urlencode({"since_id": newest, "rendered": rendered_mark(page)})


def caught_up(uid: int, query: str) -> list[dict]:
    async def scenario() -> list[dict]:
        page = LivePage(viewer(uid), query=query)
        assert await page.open() == 200
        blocks = await page.until_live()
        await page.close()
        return [{"event": block["event"], **json.loads(block["data"])} for block in blocks]

    return asyncio.run(scenario())


def test_a_post_deleted_or_edited_between_render_and_connect_is_not_shown_as_rendered(people):
    alice, bob, _ = people  # alice follows bob
    kept, gone, edited = (services.post_status(uid=bob, message=f"post {n}") for n in range(3))
    query = rendered_query(alice)
    # Between the render and the first connection:
    services.delete_status(uid=bob, status_id=gone)
    services.edit_status(uid=bob, status_id=edited, message="post 2, fixed")
    newer = services.post_status(uid=bob, message="newer than the page")
    events = caught_up(alice, query)
    assert [event["event"] for event in events] == ["timeline"]
    assert [entry["id"] for entry in events[0]["entries"]] == [newer, edited, kept]
    assert ">post 2, fixed</p>" in events[0]["entries"][1]["html"]


def test_a_page_rendered_as_the_timeline_still_is_gets_only_the_newer_posts(people):
    alice, bob, _ = people
    for n in range(3):
        services.post_status(uid=bob, message=f"post {n}")
    query = rendered_query(alice)
    newer = services.post_status(uid=bob, message="newer than the page")
    events = caught_up(alice, query)
    assert [(event["event"], event["id"]) for event in events] == [("post", newer)]


def test_a_post_hidden_by_a_block_since_the_render_leaves_the_first_page(people):
    alice, bob, _ = people
    services.post_status(uid=bob, message="from bob")
    query = rendered_query(alice)
    services.block_user(uid=alice, other_uid=bob)
    events = caught_up(alice, query)
    assert [event["event"] for event in events] == ["timeline"]
    assert events[0]["entries"] == []


def test_a_bad_rendered_mark_is_ignored_like_a_missing_one(people):
    alice, bob, _ = people
    services.post_status(uid=bob, message="from bob")
    for bad in ("x.1", "1.", "1,2,3", ",".join(f"{n}.0" for n in range(500))):
        newest = selectors.get_status_messages(uid=alice, timeline="home", count=1)[0]["id"]
        assert caught_up(alice, urlencode({"since_id": newest, "rendered": bad})) == []

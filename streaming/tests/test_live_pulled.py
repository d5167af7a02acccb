"""Hybrid fan-out (issue 23) on the live home: a post merged into homes when read, never written into them,
reaches an open home page as it is posted, and in its catch-up, as a pushed post does."""

from __future__ import annotations

import asyncio
import json

from django.test import override_settings

from streaming.tests.test_live import LivePage, people, post, viewer  # noqa: F401 (people is a fixture)
from timelines.tests.helpers import home_timeline_of


@override_settings(FANOUT_PULL_THRESHOLD=0)
def test_a_pulled_post_reaches_the_live_home_as_a_pushed_one_does(people):  # noqa: F811
    alice, bob, _ = people

    async def scenario() -> None:
        before = await post(bob, "posted before the page opened")
        page = LivePage(viewer(alice), query=f"since_id={before - 1}")
        assert await page.open() == 200
        caught_up = await page.until_live()
        assert [json.loads(block["data"])["id"] for block in caught_up if block["event"] == "post"] == [before]
        during = await post(bob, "posted while the page is open")
        while (event := await page.next_event()).get("id") != during:
            assert event["event"] == "notifications" or event.get("id") == before, event
        assert event["event"] == "post" and "posted while the page is open" in event["html"]
        await page.close()
        return during

    during = asyncio.run(scenario())
    assert during not in home_timeline_of(alice)  # merged when read, never written into her home

"""Edits on an open home page (issue 19): the ``update`` event reaches the viewers a deletion reaches, through
the same policy, with the post rendered again."""

from __future__ import annotations

import asyncio

from streaming.tests.test_live import LivePage, people, viewer  # noqa: F401  (people is a fixture)
from timelines import services


def test_an_edit_reaches_the_open_homes_of_those_who_may_see_the_post_and_no_one_else(people):  # noqa: F811
    alice, bob, carol = people  # alice follows bob; carol is a stranger

    async def scenario() -> None:
        page = LivePage(viewer(alice))
        assert await page.open() == 200
        await page.until_live()
        stranger = await asyncio.to_thread(services.post_status, uid=carol, message="a stranger's post")
        followed = await asyncio.to_thread(
            services.post_status, uid=bob, message="Followers only", visibility="private"
        )
        assert (await page.next_event())["id"] == followed
        # Carol's edit must not come; the stream keeps its order, so it would be in before Bob's.
        await asyncio.to_thread(services.edit_status, uid=carol, status_id=stranger, message="edited, unseen")
        await asyncio.to_thread(services.edit_status, uid=bob, status_id=followed, message="Followers only, fixed")
        event = await page.next_event()
        assert (event["event"], event["id"], event["last_event_id"]) == ("update", followed, None)
        assert ">Followers only, fixed</p>" in event["html"] and ">Edited <time" in event["html"]
        await page.close()

    asyncio.run(scenario())

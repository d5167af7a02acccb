"""An edited status on the book's streams (issue 19): the streams that send a status send it again after an
edit, as stored then, with ``edited_at``."""

from __future__ import annotations

import asyncio

from streaming.tests.test_streams import listen, people, post, received, run  # noqa: F401  (people: a fixture)
from timelines import services


def test_the_firehose_and_a_matching_filter_send_an_edited_status_again_with_edited_at(server, people):  # noqa: F811
    alice, _, _ = people

    async def scenario():
        firehose = await listen(server, "sample", percent="100")
        tracking = await listen(server, "filter", track="redis")
        status_id = await post(alice, "redis is fast")
        await asyncio.to_thread(services.edit_status, uid=alice, status_id=status_id, message="redis is faster")
        for listener in (firehose, tracking):
            first, again = await received(listener, 2)
            assert (first["id"], first["message"], "edited_at" in first) == (status_id, "redis is fast", False)
            assert (again["id"], again["message"], again["edits"]) == (status_id, "redis is faster", 1)
            assert isinstance(again["edited_at"], float) and again["edited_at"] > again["posted"]

    run(scenario)

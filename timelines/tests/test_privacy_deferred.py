"""Deferred delivery passes (the RQ jobs past the first ``POSTS_PER_PASS`` targets) judge a status as stored:
a private account's posts and reposts reach no list of a non-follower, whichever pass reaches it."""

from __future__ import annotations

import pytest

from socialsite.redis_client import get_redis
from timelines import keys, limits, queue, selectors, services
from timelines.tests.helpers import run_worker_burst

pytestmark = pytest.mark.slow


def list_holds(list_id: int, status_id: int) -> bool:
    return get_redis().zscore(keys.list_timeline(list_id), status_id) is not None


def test_a_deferred_pass_keeps_private_posts_and_reposts_out_of_a_strangers_list(alice, bob, carol, make_user):
    erin = make_user("erin", "Erin")
    services.set_private(uid=alice, private=True)
    services.follow_user(uid=bob, other_uid=alice)
    services.approve_follow_request(uid=alice, requester_uid=bob)
    # bob's lists fill the first pass; carol's comes after them, so only a deferred pass reaches it.
    bobs = []
    for index in range(limits.POSTS_PER_PASS):
        bobs.append(services.create_user_list(uid=bob, name=f"alice {index}"))
        services.follow_user_list(uid=bob, other_uid=alice, list_id=bobs[-1])
    carols = services.create_user_list(uid=carol, name="watching")
    services.follow_user_list(uid=carol, other_uid=alice, list_id=carols)

    post = services.post_status(uid=alice, message="for my followers")
    services.repost_status(uid=alice, status_id=services.post_status(uid=erin, message="erin's news"))
    repost = next(e.entry_id for e in selectors.get_status_messages(uid=alice, count=10) if e.reposted_by)
    assert queue.get_queue().count == 2  # one deferred pass each
    run_worker_burst()

    assert not list_holds(carols, post) and not list_holds(carols, repost)
    assert selectors.get_list_status_messages(list_id=carols, viewer_uid=carol) == []
    assert list_holds(bobs[0], post) and list_holds(bobs[-1], post) and list_holds(bobs[-1], repost)

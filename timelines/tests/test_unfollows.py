"""An unfollow with what it takes out of the follower's home (``store.unfollows``): one script on one server,
round trips on a cluster, the same outcome."""

from __future__ import annotations

import json

from socialsite.redis_client import get_redis
from timelines import events, keys, selectors, services, store
from timelines.tests.helpers import home_timeline_of, next_message


def test_an_unfollow_takes_the_followees_posts_out_and_numbers_one_refill_run(alice, bob, carol):
    alices = [services.post_status(uid=alice, message=f"alice {n}") for n in range(3)]
    carols = services.post_status(uid=carol, message="carol")
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=bob, other_uid=carol)
    assert set(alices) <= set(home_timeline_of(bob))
    before = store.refill.current_refill_run(keys.home_timeline(bob)) or 0

    first = store.unfollows.unfollow(bob, alice)
    again = store.unfollows.unfollow(bob, alice)

    assert first == store.unfollows.Unfollowed(True, before + 1)
    assert again == store.unfollows.Unfollowed(False, None)
    assert home_timeline_of(bob) == [carols]
    assert (selectors.get_user(uid=bob).following, selectors.get_user(uid=alice).followers) == (1, 0)


def test_an_unfollow_with_nothing_of_theirs_in_an_empty_home_starts_no_refill(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)

    assert store.unfollows.unfollow(bob, alice) == store.unfollows.Unfollowed(True, None)
    assert store.refill.current_refill_run(keys.home_timeline(bob)) is None


def test_an_unfollow_naming_a_missing_user_changes_nothing_for_the_one_who_exists(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    missing = bob + 1000

    assert store.unfollows.unfollow(missing, alice) is None
    assert store.unfollows.unfollow(bob, missing) is None
    assert selectors.is_following(uid=bob, other_uid=alice)
    assert selectors.get_user(uid=alice).followers == 1


def test_an_unfollow_tells_the_followers_live_pages(alice, bob):
    """One server: the removal's script publishes relations.changed after the write; a cluster: the service."""
    services.post_status(uid=alice, message="hello")
    services.follow_user(uid=bob, other_uid=alice)
    pubsub = get_redis().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(keys.STREAM_CHANNEL)
    try:
        assert services.unfollow_user(uid=bob, other_uid=alice) is True
        found = []
        while not found:
            message = next_message(pubsub)
            assert message is not None, "no relations.changed after the unfollow"
            event = json.loads(message["data"])
            if event["type"] == events.RELATIONS_CHANGED:
                found.append((event["uid"], event["other"]))
    finally:
        pubsub.close()
    assert found == [(bob, alice)]
    assert selectors.is_following(uid=bob, other_uid=alice) is False

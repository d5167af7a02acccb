"""Followed tags (issue 20): a public post reaches the homes of its tags' followers through the delivery and the one
policy; unlisted, private and direct posts and reposts never travel by a tag; a follower gets a post once however
many of its tags they follow; a deleted post leaves those homes; the audience goes on in jobs past one pass."""

from __future__ import annotations

import json

import pytest

from socialsite.redis_client import get_redis
from timelines import events, exceptions, keys, limits, selectors, services
from timelines.selectors import followed_tags as followed
from timelines.services import erasure, moderation
from timelines.services.followed_tags import follow_tag, unfollow_tag
from timelines.tests.helpers import home_timeline_of, next_message
from timelines.tests.test_delivery_events import run_jobs


def home_ids(uid: int) -> list[int]:
    """What ``uid``'s home page shows, newest first (the policy applied at read)."""
    return [status.id for status in selectors.get_status_messages(uid=uid, timeline="home")]


def test_a_followed_tags_public_posts_reach_the_home_of_someone_who_follows_nobody(alice, bob):
    assert follow_tag(uid=bob, tag="#Redis") is True
    assert follow_tag(uid=bob, tag="redis") is False
    tagged = services.post_status(uid=alice, message="tips about #REDIS")
    services.post_status(uid=alice, message="no tag here")
    services.post_status(uid=alice, message="#django only")
    assert home_timeline_of(bob) == [tagged]
    assert home_ids(bob) == [tagged]


def test_unlisted_private_and_direct_posts_and_reposts_never_travel_by_a_tag(alice, bob, carol):
    follow_tag(uid=bob, tag="redis")
    services.post_status(uid=alice, message="#redis unlisted", visibility="unlisted")
    services.post_status(uid=alice, message="#redis for followers", visibility="private")
    services.post_status(uid=alice, message="@carol #redis secret", visibility="direct")
    original = services.post_status(uid=carol, message="#redis public")
    assert home_timeline_of(bob) == [original]
    services.repost_status(uid=alice, status_id=original)
    assert home_timeline_of(bob) == [original]


def test_the_policy_decides_for_each_tag_follower(alice, bob, carol, make_user):
    dave, erin = make_user("dave"), make_user("erin")
    for uid in (bob, carol, dave, erin):
        follow_tag(uid=uid, tag="redis")
    services.mute_user(uid=carol, other_uid=alice)
    services.block_user(uid=alice, other_uid=dave)
    services.follow_user(uid=erin, other_uid=bob)
    moderation.limit_user(uid=bob)
    hidden = services.post_status(uid=bob, message="#redis from a limited account")
    shown = services.post_status(uid=alice, message="#redis from alice")
    assert home_timeline_of(bob) == [shown, hidden]  # their own post, and alice's by the tag
    assert home_timeline_of(carol) == []  # mutes alice
    assert home_timeline_of(dave) == []  # blocked by alice
    assert home_timeline_of(erin) == [shown, hidden]  # follows the limited bob: his followers still get him


def test_a_post_with_several_followed_tags_is_delivered_once(alice, bob, carol):
    for tag in ("redis", "django"):
        follow_tag(uid=bob, tag=tag)
    services.follow_user(uid=carol, other_uid=alice)
    follow_tag(uid=carol, tag="django")
    pubsub = get_redis().pubsub()
    pubsub.subscribe(keys.STREAM_CHANNEL)
    try:
        status_id = services.post_status(uid=alice, message="#redis and #django")
        homes: list[int] = []
        while True:
            message = next_message(pubsub)
            assert message is not None
            event = json.loads(message["data"])
            if event["type"] == events.TIMELINE_DELIVERY and event["kind"] == events.POST:
                homes.extend(event["homes"])
            elif event["type"] == events.STATUS_CREATED:
                break
    finally:
        pubsub.close()
    assert sorted(homes) == sorted([alice, carol, bob])  # each named once: carol by following alice
    assert home_timeline_of(bob) == [status_id] and home_timeline_of(carol) == [status_id]


def test_a_deleted_post_leaves_the_homes_its_tag_reached(alice, bob):
    follow_tag(uid=bob, tag="redis")
    status_id = services.post_status(uid=alice, message="#redis soon gone")
    assert home_timeline_of(bob) == [status_id]
    services.delete_status(uid=alice, status_id=status_id)
    assert home_timeline_of(bob) == []


def test_unfollowing_a_tag_stops_new_posts_and_keeps_what_came(alice, bob):
    follow_tag(uid=bob, tag="redis")
    first = services.post_status(uid=alice, message="#redis one")
    assert unfollow_tag(uid=bob, tag="Redis") is True
    assert unfollow_tag(uid=bob, tag="redis") is False
    services.post_status(uid=alice, message="#redis two")
    assert home_timeline_of(bob) == [first]


def test_a_tags_audience_past_one_pass_goes_on_in_jobs(alice, make_user, monkeypatch):
    monkeypatch.setattr(limits, "POSTS_PER_PASS", 2)
    monkeypatch.setattr(limits, "DELIVERY_JOB_SIZE", 2)
    readers = [make_user(f"reader{index}") for index in range(5)]
    for uid in readers:
        follow_tag(uid=uid, tag="redis")
    status_id = services.post_status(uid=alice, message="#redis for many")
    assert sum(status_id in home_timeline_of(uid) for uid in readers) == 2
    run_jobs()
    assert all(home_timeline_of(uid) == [status_id] for uid in readers)
    services.delete_status(uid=alice, status_id=status_id)
    run_jobs()
    assert all(home_timeline_of(uid) == [] for uid in readers)


def test_the_followed_tags_list_newest_first_and_its_bounds(bob, monkeypatch):
    for tag in ("one", "two", "three"):
        follow_tag(uid=bob, tag=tag)
    page = followed.get_followed_tags(uid=bob, count=2)
    assert [tag.name for tag in page] == ["three", "two"]
    rest = followed.get_followed_tags(uid=bob, count=2, before=page[-1].followed_at)
    assert [tag.name for tag in rest] == ["one"]
    assert followed.follows_tags(uid=bob, tags=["two", "four"]) == [True, False]
    for bad in ("", "#", "123", "two words", "x" * 500):
        with pytest.raises(exceptions.InvalidTag):
            follow_tag(uid=bob, tag=bad)
    monkeypatch.setattr(limits, "MAX_FOLLOWED_TAGS", 3)
    with pytest.raises(exceptions.TooManyFollowedTags):
        follow_tag(uid=bob, tag="four")
    assert follow_tag(uid=bob, tag="one") is False  # already followed: no error at the limit


def test_deleting_an_account_takes_it_out_of_its_tags_followers(alice, bob):
    follow_tag(uid=bob, tag="redis")
    erasure.delete_account(uid=bob)
    run_jobs()
    assert get_redis().zcard(keys.tag_followers("redis")) == 0
    assert get_redis().exists(keys.followed_tags(bob)) == 0


def test_an_edit_that_adds_a_followed_tag_delivers_the_post_as_mastodon_does(alice, bob, carol):
    # Mastodon's UpdateStatusService re-runs the fan-out (DistributionWorker 'update'): the new tag's followers get
    # the post at its first place in time; those of a tag it already had get it once; a removed tag takes nothing.
    follow_tag(uid=bob, tag="redis")
    follow_tag(uid=carol, tag="django")
    older = services.post_status(uid=alice, message="#django first")
    status_id = services.post_status(uid=alice, message="plain words")
    newer = services.post_status(uid=alice, message="#django later")
    assert home_timeline_of(bob) == []
    assert services.edit_status(uid=alice, status_id=status_id, message="now about #redis and #django")
    assert home_ids(bob) == [status_id]
    assert home_ids(carol) == [newer, status_id, older]
    assert services.edit_status(uid=alice, status_id=status_id, message="only #redis now")
    assert home_ids(bob) == [status_id]
    private = services.post_status(uid=alice, message="quiet", visibility="private")
    services.edit_status(uid=alice, status_id=private, message="quiet #redis")
    assert home_ids(bob) == [status_id]

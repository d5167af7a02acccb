"""Moderation of the Redis-backed network: suspend, limit, remove a post, delete an account (services)."""

from __future__ import annotations

import pytest

from socialsite.redis_client import get_redis
from timelines import exceptions, keys, limits, selectors, services
from timelines.services import erasure, moderation
from timelines.tests.helpers import run_worker_burst

# Key builders that take something other than a user id (statuses, lists, shards, tags, buckets).
NOT_PER_USER = {
    "status",
    "replies",
    "thread",
    "likers",
    "reposters",
    "user_list",
    "list_members",
    "list_timeline",
    "list_reposts",
    "refill_run",
    "timeline",
    "search_shard",
    "seen_shard",
    "search_word",
    "tag_timeline",
    "trending_hour",
    "trending",
    "stat",
}


def home(uid: int) -> list[int]:
    return [entry.status.id for entry in selectors.get_status_messages(uid=uid, count=100)]


def test_a_suspended_persons_posts_reposts_and_replies_disappear_everywhere_and_come_back(alice, bob, carol):
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=bob, other_uid=carol)
    post = services.post_status(uid=alice, message="#moderated words @bob")
    reply = services.post_status(uid=alice, message="self reply", in_reply_to=post)
    other = services.post_status(uid=carol, message="carol's post")
    services.repost_status(uid=alice, status_id=other)
    services.like_status(uid=alice, status_id=other)

    assert moderation.suspend_user(uid=alice) is True
    assert home(bob) == [other]
    assert selectors.get_tag_timeline(tag="moderated") == []
    assert selectors.search(query="moderated").statuses == ()
    assert selectors.get_status_messages(uid=alice, timeline="profile", viewer_uid=carol) == []
    with pytest.raises(exceptions.StatusNotFound):
        selectors.get_thread(status_id=post, viewer_uid=bob)
    assert [n.kind for n in selectors.get_notifications(uid=bob)] == []
    assert [n.kind for n in selectors.get_notifications(uid=carol)] == ["follow"]  # bob's; alice's are hidden
    assert selectors.get_status(status_id=post).reply_count == 1  # nothing is deleted

    assert moderation.unsuspend_user(uid=alice) is True
    run_worker_burst()  # the refills of her followers' homes
    assert set(home(bob)) == {post, reply, other}
    assert [n.kind for n in selectors.get_notifications(uid=bob)] == ["mention"]
    assert {n.kind for n in selectors.get_notifications(uid=carol)} == {"follow", "like", "repost"}


def test_a_limited_persons_posts_reach_only_their_followers(alice, bob, carol):
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=carol, other_uid=bob)
    moderation.limit_user(uid=alice)
    post = services.post_status(uid=alice, message="#quiet limited words")
    with pytest.raises(exceptions.CannotRepost):  # it would reach beyond her followers
        services.repost_status(uid=bob, status_id=post)
    assert post in home(bob) and post not in home(carol)
    assert selectors.get_tag_timeline(tag="quiet") == []
    assert selectors.search(query="limited").statuses == ()
    moderation.unlimit_user(uid=alice)
    later = services.post_status(uid=alice, message="#quiet again")
    assert [entry.status.id for entry in selectors.get_tag_timeline(tag="quiet")] == [later]


def test_a_removed_post_is_gone_everywhere_and_its_author_is_told_why(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    post = services.post_status(uid=alice, message="against the rules")
    assert moderation.remove_status(status_id=post, reason="spam links") == alice
    assert home(bob) == [] and selectors.get_user(uid=alice).posts == 0
    [notification] = [n for n in selectors.get_notifications(uid=alice) if n.kind != "follow"]
    assert (notification.kind, notification.text, notification.actor.name) == (
        "moderation",
        "spam links",
        "The moderators",
    )
    with pytest.raises(exceptions.StatusNotFound):
        moderation.remove_status(status_id=post, reason="again")


def test_deleting_an_account_removes_everything_of_the_person_and_keeps_others_counts_right(alice, bob, carol):
    for follower, followee in ((alice, bob), (bob, alice), (carol, alice)):
        services.follow_user(uid=follower, other_uid=followee)
    post = services.post_status(uid=alice, message="#farewell from @bob")
    bobs = services.post_status(uid=bob, message="bob's post")
    services.like_status(uid=alice, status_id=bobs)
    services.repost_status(uid=alice, status_id=bobs)
    answer = services.post_status(uid=bob, message="answer", in_reply_to=post)
    list_id = services.create_user_list(uid=alice, name="Friends")
    services.follow_user_list(uid=alice, other_uid=bob, list_id=list_id)
    carols_list = services.create_user_list(uid=carol, name="Watch")
    services.follow_user_list(uid=carol, other_uid=alice, list_id=carols_list)
    services.mute_user(uid=alice, other_uid=carol)

    erasure.delete_account(uid=alice)
    run_worker_burst()
    per_user = [key for key in dir(keys) if callable(getattr(keys, key)) and not key.startswith("_")]
    users_keys = [getattr(keys, name)(alice) for name in per_user if name not in NOT_PER_USER]
    assert [key for key in users_keys if get_redis().exists(key)] == []
    assert not get_redis().sismember(keys.SUSPENDED_USERS, alice)
    assert get_redis().zscore(keys.seen_shard(alice % limits.IDLE_SEEN_SHARDS), alice) is None  # their last visit
    with pytest.raises(exceptions.UnknownUser):
        selectors.get_user_by_login(login="alice")
    bob_now = selectors.get_user(uid=bob)
    assert (bob_now.followers, bob_now.following) == (0, 0)
    assert selectors.get_user(uid=carol).following == 0
    status = selectors.get_status(status_id=bobs)
    assert (status.like_count, status.repost_count) == (0, 0)
    assert home(bob) == [answer, bobs]  # nothing of alice's, her repost included
    assert selectors.get_status(status_id=answer).extra.get("in_reply_to_deleted") == "1"
    assert selectors.get_user_list(list_id=carols_list).members == 0
    assert selectors.search(query="@alice").users == ()
    assert selectors.get_tag_timeline(tag="farewell") == []
    assert services.create_user(login="alice", name="A new Alice") != alice  # the login is free again


def test_a_suspension_is_read_alone_as_the_whole_user_shows_it(alice, bob):
    """``get_user_suspended`` (what every client API call asks) agrees with the user record, and an unknown
    account is unknown."""
    moderation.suspend_user(uid=alice)
    assert selectors.get_user_suspended(uid=alice) is True is selectors.get_user(uid=alice).suspended
    assert selectors.get_user_suspended(uid=bob) is False is selectors.get_user(uid=bob).suspended
    moderation.unsuspend_user(uid=alice)
    assert selectors.get_user_suspended(uid=alice) is False is selectors.get_user(uid=alice).suspended
    with pytest.raises(exceptions.UnknownUser):
        selectors.get_user_suspended(uid=10**9)

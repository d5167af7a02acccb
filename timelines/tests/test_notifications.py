"""Notifications: who is told what, exact unread counts, grouping, read marks, caps, and deletion."""

from __future__ import annotations

import json
import threading

import pytest

from socialsite.redis_client import get_redis
from timelines import events, limits, selectors, services, text
from timelines.services import moderation
from timelines.tests.helpers import next_message, settled_stream


def kinds(uid: int) -> list[tuple[str, str, int | None]]:
    return [(n.kind, n.actor.login, n.status.id if n.status else None) for n in selectors.get_notifications(uid=uid)]


def test_mentions_replies_reposts_likes_and_follows_notify_the_person_concerned(alice, bob, carol):
    post = services.post_status(uid=alice, message="hello @bob and @carol")
    reply = services.post_status(uid=bob, message="@alice hi back", in_reply_to=post)
    services.repost_status(uid=carol, status_id=post)
    services.like_status(uid=bob, status_id=post)
    services.follow_user(uid=carol, other_uid=alice)
    assert kinds(bob) == [("mention", "alice", post)]
    assert kinds(carol) == [("mention", "alice", post)]
    assert kinds(alice) == [
        ("follow", "carol", None),
        ("like", "bob", post),
        ("repost", "carol", post),
        ("reply", "bob", reply),  # "replied to you", not also "mentioned you"
    ]
    assert selectors.get_unread_count(uid=alice) == 4


def test_a_follow_notifies_as_the_followees_mutes_and_the_followers_moderation_allow(alice, bob, carol, make_user):
    # The follow's notification is judged from what the follow itself read, both ways between the two.
    services.mute_user(uid=alice, other_uid=bob)
    services.follow_user(uid=bob, other_uid=alice)  # alice muted bob: no notification
    services.mute_user(uid=carol, other_uid=alice)
    services.follow_user(uid=carol, other_uid=alice)  # carol muting alice does not silence carol's follow to alice
    dave, erin = make_user("dave"), make_user("erin")
    moderation.limit_user(uid=dave)
    moderation.limit_user(uid=erin)
    services.follow_user(uid=alice, other_uid=erin)
    services.follow_user(uid=dave, other_uid=alice)  # limited, and alice does not follow dave: nothing
    services.follow_user(uid=erin, other_uid=alice)  # limited, but alice follows erin
    assert kinds(alice) == [("follow", "erin", None), ("follow", "carol", None)]
    assert selectors.is_following(uid=bob, other_uid=alice) and selectors.is_following(uid=dave, other_uid=alice)


def test_nobody_is_notified_of_their_own_actions(alice):
    post = services.post_status(uid=alice, message="me, @alice")
    services.post_status(uid=alice, message="talking to myself", in_reply_to=post)
    services.like_status(uid=alice, status_id=post)
    services.repost_status(uid=alice, status_id=post)
    assert selectors.get_notifications(uid=alice) == []
    assert selectors.get_unread_count(uid=alice) == 0


def test_reading_marks_everything_read_and_publishes_the_new_count(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    services.like_status(uid=bob, status_id=services.post_status(uid=alice, message="x"))
    assert selectors.get_unread_count(uid=alice) == 2
    pubsub = get_redis().pubsub(ignore_subscribe_messages=True)
    settled_stream(pubsub)
    try:
        services.mark_notifications_read(uid=alice)
        event = json.loads(next_message(pubsub)["data"])
    finally:
        pubsub.close()
    assert (event["type"], event["uid"], event["unread"]) == (events.NOTIFICATIONS_CHANGED, alice, 0)
    assert selectors.get_unread_count(uid=alice) == 0
    assert all(not n.unread for n in selectors.get_notifications(uid=alice))
    services.follow_user(uid=alice, other_uid=bob)
    assert selectors.get_unread_count(uid=bob) == 1


def test_a_new_notification_publishes_the_recipients_unread_count(alice, bob):
    pubsub = get_redis().pubsub(ignore_subscribe_messages=True)
    settled_stream(pubsub)
    try:
        services.follow_user(uid=bob, other_uid=alice)
        # The follow's other event (relations.changed) may come first: on a cluster it is published on another
        # node, and events of different nodes reach a subscriber in no set order.
        found = [json.loads(next_message(pubsub)["data"]) for _ in range(2)]
    finally:
        pubsub.close()
    created = [event for event in found if event["type"] == events.NOTIFICATION_CREATED]
    assert created == [{"type": events.NOTIFICATION_CREATED, "v": events.VERSION, "uid": alice, "unread": 1}]


def test_likes_of_one_post_group_into_one_line(alice, make_user):
    post = services.post_status(uid=alice, message="popular")
    fans = [make_user(f"fan{i}", f"Fan {i}") for i in range(4)]
    for fan in fans:
        services.like_status(uid=fan, status_id=post)
    [group] = selectors.group_notifications(selectors.get_notifications(uid=alice))
    assert (group.kind, group.actors[0].login, group.others, group.unread) == ("like", "fan3", 3, True)


def test_unread_counts_stay_exact_under_racing_notifications(alice, make_user):
    post = services.post_status(uid=alice, message="race")
    fans = [make_user() for _ in range(30)]
    threads = [threading.Thread(target=services.like_status, kwargs={"uid": f, "status_id": post}) for f in fans]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert selectors.get_unread_count(uid=alice) == 30


def test_a_feed_keeps_the_newest_notifications_only(alice, make_user, monkeypatch):
    monkeypatch.setattr(limits, "MAX_NOTIFICATIONS", 5)  # read by the store in this process only
    post = services.post_status(uid=alice, message="capped")
    fans = [make_user() for _ in range(8)]
    for fan in fans:
        services.like_status(uid=fan, status_id=post)
    assert [n.actor.id for n in selectors.get_notifications(uid=alice)] == list(reversed(fans))[:5]
    assert selectors.get_unread_count(uid=alice) == 5


def test_deleting_a_post_removes_the_notifications_about_it(alice, bob, carol):
    post = services.post_status(uid=alice, message="hey @bob")
    services.like_status(uid=carol, status_id=post)
    reply = services.post_status(uid=carol, message="reply", in_reply_to=post)
    services.delete_status(uid=alice, status_id=post)
    assert selectors.get_notifications(uid=bob) == [] and selectors.get_unread_count(uid=bob) == 0
    assert kinds(alice) == [("reply", "carol", reply)]
    services.delete_status(uid=carol, status_id=reply)
    assert kinds(alice) == [] and selectors.get_unread_count(uid=alice) == 0


@pytest.mark.parametrize("kind", ["mention", "follow"])
def test_the_policy_decides_who_is_notified(alice, bob, settings, monkeypatch, kind):
    from timelines.tests import policies

    settings.TIMELINES_POLICY = policies.PATH
    monkeypatch.setenv(policies.ENV, policies.refusal(bob, alice))
    if kind == "mention":
        services.post_status(uid=alice, message="hi @bob")
    else:
        services.follow_user(uid=alice, other_uid=bob)
    assert selectors.get_notifications(uid=bob) == []


def test_a_private_post_notifies_only_those_who_may_see_it(alice, bob, carol, make_user):
    """Mentions and replies in a private account's posts, and its reposts, notify its approved followers only."""
    erin = make_user("erin", "Erin")
    services.set_private(uid=alice, private=True)
    services.follow_user(uid=bob, other_uid=alice)
    services.approve_follow_request(uid=alice, requester_uid=bob)
    carols = services.post_status(uid=carol, message="carol's public post")
    services.post_status(uid=alice, message="hello @bob and @carol")
    services.post_status(uid=alice, message="an answer", in_reply_to=carols)
    services.repost_status(uid=alice, status_id=services.post_status(uid=erin, message="erin's news"))
    assert [n.kind for n in selectors.get_notifications(uid=bob)] == ["mention", "follow_accepted"]
    for stranger in (carol, erin):
        assert selectors.get_unread_count(uid=stranger) == 0
        assert selectors.get_notifications(uid=stranger) == []


def test_a_private_account_is_told_of_likes_and_replies_to_its_posts(alice, bob):
    services.set_private(uid=alice, private=True)
    services.follow_user(uid=bob, other_uid=alice)
    services.approve_follow_request(uid=alice, requester_uid=bob)
    # A reply to a followers-only post is followers only too (never wider than what it answers): alice sees
    # bob's because she follows him back.
    services.follow_user(uid=alice, other_uid=bob)
    post = services.post_status(uid=alice, message="for my followers")
    services.like_status(uid=bob, status_id=post)
    services.post_status(uid=bob, message="an answer", in_reply_to=post)
    assert [(n.kind, n.actor.id) for n in selectors.get_notifications(uid=alice)] == [
        ("reply", bob),
        ("like", bob),
        ("follow_request", bob),
    ]
    assert selectors.get_unread_count(uid=alice) == 3


def test_a_post_notifies_at_most_max_mentions_people_the_first_ones_it_names(alice, make_user):
    """A post naming 40 people (280 characters hold that many short logins) tells only the first
    ``text.MAX_MENTIONS``: one post cannot fan out into dozens of notifications."""
    crowd = [make_user(f"p{index}") for index in range(40)]
    message = " ".join(f"@p{index}" for index in range(40))
    assert len(message) <= limits.MAX_MESSAGE_LENGTH
    services.post_status(uid=alice, message=message)
    told = [uid for uid in crowd if selectors.get_unread_count(uid=uid)]
    assert told == crowd[: text.MAX_MENTIONS]


def test_each_notification_event_carries_the_unread_count_its_notification_made(alice, bob, carol):
    post = services.post_status(uid=alice, message="hello")
    pubsub = get_redis().pubsub(ignore_subscribe_messages=True)
    settled_stream(pubsub)
    try:
        services.like_status(uid=bob, status_id=post)
        services.follow_user(uid=carol, other_uid=alice)
        found = []
        while len(found) < 2:
            event = json.loads(next_message(pubsub)["data"])
            # On a cluster an earlier test's events can still be crossing the cluster bus: only alice's count.
            if event["type"] == events.NOTIFICATION_CREATED and event["uid"] == alice:
                found.append((event["uid"], event["unread"]))
    finally:
        pubsub.close()
    assert found == [(alice, 1), (alice, 2)]


def test_a_follow_notifies_after_the_server_forgot_its_scripts(alice, bob, carol):
    """A restarted server no longer knows the scripts a follow queues in its batches: they are loaded again."""
    services.follow_user(uid=carol, other_uid=alice)
    get_redis().script_flush()
    services.follow_user(uid=bob, other_uid=alice)
    assert kinds(alice) == [("follow", "bob", None), ("follow", "carol", None)]
    assert selectors.get_unread_count(uid=alice) == 2

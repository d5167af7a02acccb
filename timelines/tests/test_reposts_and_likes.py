"""Reposts with Mastodon's deduplication, likes, and their exact counters (services.reposts, services.likes)."""

from __future__ import annotations

import threading

import pytest

from timelines import exceptions, selectors, services
from timelines.tests.helpers import home_timeline_of


@pytest.fixture
def dave(make_user):
    return make_user("dave", "Dave Grohl")


def home_entries(uid: int):
    return selectors.get_status_messages(uid=uid, count=50)


def test_followers_of_a_reposter_see_the_original_once_saying_who_reposted(alice, bob, carol):
    services.follow_user(uid=carol, other_uid=bob)
    post = services.post_status(uid=alice, message="worth sharing")
    assert services.repost_status(uid=bob, status_id=post) is True
    [entry] = home_entries(carol)
    assert entry.status.id == post and entry.reposted_by.login == "bob" and entry.repost_id is not None
    assert entry["id"] == post  # reads like the original, as the Python API always did
    assert selectors.get_status(status_id=post).repost_count == 1
    # Shown on the reposter's profile too.
    assert [e.status.id for e in selectors.get_status_messages(uid=bob, timeline="profile")] == [post]


def test_a_post_reposted_by_several_people_you_follow_appears_once(alice, bob, carol, dave):
    for followee in (bob, dave):
        services.follow_user(uid=carol, other_uid=followee)
    post = services.post_status(uid=alice, message="viral")
    services.repost_status(uid=bob, status_id=post)
    services.repost_status(uid=dave, status_id=post)
    assert [(e.status.id, e.reposted_by.login) for e in home_entries(carol)] == [(post, "bob")]
    assert len(home_timeline_of(carol)) == 1
    assert selectors.get_status(status_id=post).repost_count == 2


def test_a_repost_of_a_post_you_already_have_is_not_added_again(alice, bob, carol):
    services.follow_user(uid=carol, other_uid=alice)
    services.follow_user(uid=carol, other_uid=bob)
    post = services.post_status(uid=alice, message="seen it")
    services.repost_status(uid=bob, status_id=post)
    assert [(e.status.id, e.reposted_by) for e in home_entries(carol)] == [(post, None)]


def test_undo_repost_removes_it_unless_another_followed_reposter_brings_it(alice, bob, carol, dave):
    for followee in (bob, dave):
        services.follow_user(uid=carol, other_uid=followee)
    post = services.post_status(uid=alice, message="boost")
    services.repost_status(uid=bob, status_id=post)
    services.repost_status(uid=dave, status_id=post)
    assert services.undo_repost(uid=bob, status_id=post) is True
    assert [(e.status.id, e.reposted_by.login) for e in home_entries(carol)] == [(post, "dave")]
    assert services.undo_repost(uid=dave, status_id=post) is True
    assert home_entries(carol) == []
    assert selectors.get_status(status_id=post).repost_count == 0
    assert services.undo_repost(uid=dave, status_id=post) is False


def test_reposting_is_idempotent_and_a_repost_of_a_repost_reposts_the_original(alice, bob, carol):
    post = services.post_status(uid=alice, message="once")
    services.repost_status(uid=bob, status_id=post)
    bobs_repost = selectors.get_status_messages(uid=bob, timeline="profile")[0].repost_id
    assert services.repost_status(uid=bob, status_id=post) is False
    assert services.repost_status(uid=carol, status_id=bobs_repost) is True
    assert selectors.get_status(status_id=post).repost_count == 2
    assert selectors.get_user(uid=bob).posts == 1


def test_racing_reposts_of_one_user_count_once(alice, bob):
    post = services.post_status(uid=alice, message="race")
    results: list[bool] = []
    threads = [
        threading.Thread(target=lambda: results.append(services.repost_status(uid=bob, status_id=post)))
        for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False] * 7 + [True]
    assert selectors.get_status(status_id=post).repost_count == 1
    assert len(selectors.get_status_messages(uid=bob, timeline="profile")) == 1


def test_reposting_or_liking_a_missing_post_is_status_not_found_and_counts_nothing(alice, bob):
    post = services.post_status(uid=alice, message="gone soon")
    services.delete_status(uid=alice, status_id=post)
    for service in (services.repost_status, services.like_status):
        for target in (post, 0, -1, 10**30):
            with pytest.raises(exceptions.StatusNotFound):
                service(uid=bob, status_id=target)
    assert selectors.get_user(uid=bob).posts == 0
    assert selectors.get_liked_statuses(uid=bob).entries == []


def test_likes_are_idempotent_exact_and_listed_most_recent_first(alice, bob, carol):
    first = services.post_status(uid=alice, message="first")
    second = services.post_status(uid=alice, message="second")
    assert services.like_status(uid=bob, status_id=second) is True
    assert services.like_status(uid=bob, status_id=first) is True
    assert services.like_status(uid=bob, status_id=first) is False
    services.like_status(uid=carol, status_id=first)
    assert selectors.get_status(status_id=first).like_count == 2
    assert [e.status.id for e in selectors.get_liked_statuses(uid=bob).entries] == [first, second]
    assert services.unlike_status(uid=bob, status_id=first) is True
    assert services.unlike_status(uid=bob, status_id=first) is False
    assert selectors.get_status(status_id=first).like_count == 1


def test_racing_likes_keep_the_count_exact(alice, make_user):
    post = services.post_status(uid=alice, message="like me")
    fans = [make_user() for _ in range(20)]
    threads = [
        threading.Thread(target=services.like_status, kwargs={"uid": fan, "status_id": post})
        for fan in fans
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert selectors.get_status(status_id=post).like_count == 20


def test_pages_say_whether_the_viewer_liked_or_reposted_each_post(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    liked = services.post_status(uid=alice, message="liked")
    plain = services.post_status(uid=alice, message="plain")
    services.like_status(uid=bob, status_id=liked)
    services.repost_status(uid=bob, status_id=liked)
    flags = {e.status.id: (e.liked, e.reposted) for e in home_entries(bob)}
    assert flags == {liked: (True, True), plain: (False, False)}


def test_deleting_a_post_removes_its_reposts_likes_and_their_traces(alice, bob, carol):
    services.follow_user(uid=carol, other_uid=bob)
    post = services.post_status(uid=alice, message="doomed")
    services.repost_status(uid=bob, status_id=post)
    services.like_status(uid=bob, status_id=post)
    services.delete_status(uid=alice, status_id=post)
    assert home_timeline_of(carol) == [] and home_timeline_of(bob) == []
    assert selectors.get_status_messages(uid=bob, timeline="profile") == []
    assert selectors.get_user(uid=bob).posts == 0
    assert selectors.get_liked_statuses(uid=bob).entries == []
    with pytest.raises(exceptions.StatusNotFound):
        services.repost_status(uid=carol, status_id=post)

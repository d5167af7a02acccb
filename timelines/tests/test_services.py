"""The social graph's writes: users, statuses, follows and deletes (book 8.1 to 8.4, with its bugs fixed)."""

from __future__ import annotations

import json
import threading
import time

import pytest

from socialsite.redis_client import get_redis
from timelines import events, exceptions, keys, limits, selectors, services
from timelines.tests.helpers import home_timeline_of, next_message


def profile_ids(uid: int) -> list[int]:
    return [int(member) for member in get_redis().zrevrange(keys.profile_timeline(uid), 0, -1)]


# --- users -------------------------------------------------------------------------------------------


def test_create_user_stores_a_public_profile_without_credentials():
    uid = services.create_user(login="Alice", name="Alice Liddell")
    user = selectors.get_user(uid=uid)
    assert (user.login, user.name, user.followers, user.following, user.posts) == ("Alice", "Alice Liddell", 0, 0, 0)
    assert abs(user.signup - time.time()) < 60
    assert set(get_redis().hgetall(keys.user(uid))) == {
        "login",
        "id",
        "name",
        "followers",
        "following",
        "posts",
        "signup",
        "seen",  # the last visit (services.idle): signing up is one
    }


def test_logins_are_unique_whatever_their_case(alice):
    with pytest.raises(exceptions.LoginTaken):
        services.create_user(login="ALICE", name="Impostor")
    assert selectors.get_user_by_login(login="aLiCe").id == alice


@pytest.mark.parametrize("login", ["", "has space", "dash-ed", "x" * (limits.MAX_LOGIN_LENGTH + 1), "ünïcode"])
def test_bad_logins_are_refused(login):
    with pytest.raises(exceptions.InvalidLogin):
        services.create_user(login=login, name="Someone")


def test_racing_sign_ups_of_one_login_give_exactly_one_user():
    outcomes: list[object] = []
    barrier = threading.Barrier(16)

    def sign_up(i: int) -> None:
        barrier.wait()
        try:
            outcomes.append(services.create_user(login="Popular" if i % 2 else "popular", name=f"Racer {i}"))
        except exceptions.LoginTaken as error:
            outcomes.append(error)

    threads = [threading.Thread(target=sign_up, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [outcome for outcome in outcomes if isinstance(outcome, int)]
    assert len(winners) == 1
    assert len(outcomes) == 16
    assert selectors.get_user_by_login(login="popular").id == winners[0]
    # Losers leave nothing behind: one user hash in all.
    assert list(get_redis().scan_iter(match=keys.user("*"))) == [keys.user(winners[0])]


def test_unknown_users_raise():
    with pytest.raises(exceptions.UnknownUser):
        selectors.get_user(uid=999)
    with pytest.raises(exceptions.UnknownUser):
        selectors.get_user_by_login(login="nobody")
    with pytest.raises(exceptions.UnknownUser):
        services.post_status(uid=999, message="hello")
    with pytest.raises(exceptions.UnknownUser):
        selectors.get_status_messages(uid=999)


# --- posting -----------------------------------------------------------------------------------------


def test_post_status_writes_the_status_and_shows_it_to_the_author(alice):
    status_id = services.post_status(uid=alice, message="  Hello, world!  ")
    status = selectors.get_status(status_id=status_id)
    assert status["message"] == "Hello, world!"
    assert (status["id"], status["uid"], status["login"], status["name"]) == (
        status_id,
        alice,
        "alice",
        "Alice Liddell",
    )
    assert abs(status["posted"] - time.time()) < 60
    assert profile_ids(alice) == [status_id]
    assert home_timeline_of(alice) == [status_id]
    assert selectors.get_user(uid=alice).posts == 1


def test_followers_see_a_new_post_at_once(alice, bob, carol):
    services.follow_user(uid=bob, other_uid=alice)
    status_id = services.post_status(uid=alice, message="first")
    assert home_timeline_of(bob) == [status_id]
    assert home_timeline_of(carol) == []


def test_status_ids_and_posted_times_grow_together(alice):
    ids = [services.post_status(uid=alice, message=f"post {i}") for i in range(50)]
    posted = [selectors.get_status(status_id=status_id)["posted"] for status_id in ids]
    assert ids == sorted(ids)
    assert posted == sorted(posted) and len(set(posted)) == len(posted)


@pytest.mark.parametrize(
    ("message", "error"),
    [("", exceptions.EMPTY_MESSAGE), ("   \n\t ", exceptions.EMPTY_MESSAGE), ("x" * 281, exceptions.MESSAGE_TOO_LONG)],
)
def test_empty_or_overlong_posts_are_refused_and_nothing_is_written(alice, message, error):
    with pytest.raises(exceptions.InvalidMessage) as raised:
        services.post_status(uid=alice, message=message)
    assert raised.value.message == error
    assert profile_ids(alice) == []
    assert get_redis().hget(keys.STATUS_ID_COUNTER, "last") is None


def test_a_post_of_exactly_the_limit_is_accepted(alice):
    status_id = services.post_status(uid=alice, message="é" * limits.MAX_MESSAGE_LENGTH)
    assert len(selectors.get_status(status_id=status_id)["message"]) == limits.MAX_MESSAGE_LENGTH


def test_extra_data_such_as_a_location_is_stored_with_the_status(alice):
    status_id = services.post_status(uid=alice, message="at the pier", location="51.5072,-0.1276")
    assert selectors.get_status(status_id=status_id)["location"] == "51.5072,-0.1276"


@pytest.mark.parametrize(
    "data", [{"location": "north"}, {"location": "91,0"}, {"login": "mallory"}, {"Bad-Name": "x"}, {"note": "x" * 500}]
)
def test_bad_extra_data_is_refused(alice, data):
    with pytest.raises(exceptions.InvalidStatusData):
        services.post_status(uid=alice, message="hi", **data)
    assert profile_ids(alice) == []


def test_posting_publishes_the_status_after_writing_it(alice):
    pubsub = get_redis().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(keys.STREAM_CHANNEL)
    try:
        status_id = services.post_status(uid=alice, message="live!", location="1,2")
        # First what the delivery wrote to whom (her own home), then the post itself.
        delivery = json.loads(next_message(pubsub)["data"])
        message = next_message(pubsub)
    finally:
        pubsub.close()
    assert (delivery["type"], delivery["kind"], delivery["homes"]) == (events.TIMELINE_DELIVERY, events.POST, [alice])
    event = json.loads(message["data"])
    assert (event["type"], event["v"]) == (events.STATUS_CREATED, events.VERSION)
    status = event["status"]
    assert status == selectors.get_status(status_id=status_id).as_dict()
    assert status["id"] == status_id and status["message"] == "live!" and status["location"] == "1,2"


# --- following ---------------------------------------------------------------------------------------


def test_follow_and_unfollow_keep_both_counts_equal_to_the_sets(alice, bob):
    assert services.follow_user(uid=bob, other_uid=alice) is True
    assert services.follow_user(uid=bob, other_uid=alice) is False
    assert (selectors.get_user(uid=bob).following, selectors.get_user(uid=alice).followers) == (1, 1)
    assert selectors.is_following(uid=bob, other_uid=alice)
    assert [user.id for user in selectors.get_followers(uid=alice)] == [bob]
    assert [user.id for user in selectors.get_following(uid=bob)] == [alice]

    assert services.unfollow_user(uid=bob, other_uid=alice) is True
    assert services.unfollow_user(uid=bob, other_uid=alice) is False
    assert (selectors.get_user(uid=bob).following, selectors.get_user(uid=alice).followers) == (0, 0)
    assert selectors.get_followers(uid=alice) == []


def test_following_both_ways_counts_each_direction(alice, bob):
    services.follow_user(uid=alice, other_uid=bob)
    services.follow_user(uid=bob, other_uid=alice)
    for uid in (alice, bob):
        user = selectors.get_user(uid=uid)
        assert (user.followers, user.following) == (1, 1)


def test_follow_copies_the_followees_recent_posts_and_unfollow_removes_them(alice, bob, carol):
    theirs = [services.post_status(uid=alice, message=f"alice {i}") for i in range(5)]
    mine = services.post_status(uid=bob, message="bob's own")
    services.follow_user(uid=bob, other_uid=carol)
    carols = services.post_status(uid=carol, message="carol")

    services.follow_user(uid=bob, other_uid=alice)
    assert home_timeline_of(bob) == [carols, mine, *reversed(theirs)]

    services.unfollow_user(uid=bob, other_uid=alice)
    assert home_timeline_of(bob) == [carols, mine]


def test_unfollow_removes_the_followees_posts_even_past_their_latest_thousand(alice, bob):
    """bob's home keeps alice's first posts while he mutes her; she then posts a full home's worth that never
    reach him. Unfollowing her still takes her first posts out of his home."""
    services.follow_user(uid=bob, other_uid=alice)
    mine = services.post_status(uid=bob, message="bob's own")
    early = [services.post_status(uid=alice, message=f"early {i}") for i in range(3)]
    services.mute_user(uid=bob, other_uid=alice)
    for i in range(limits.HOME_TIMELINE_SIZE + 5):
        services.post_status(uid=alice, message=f"muted {i}")
    assert home_timeline_of(bob) == [*reversed(early), mine]

    services.unfollow_user(uid=bob, other_uid=alice)
    assert home_timeline_of(bob) == [mine]


def test_follow_copies_at_most_a_full_home_timeline(alice, bob):
    ids = [services.post_status(uid=alice, message=f"{i}") for i in range(limits.HOME_TIMELINE_SIZE + 20)]
    services.follow_user(uid=bob, other_uid=alice)
    assert home_timeline_of(bob) == list(reversed(ids))[: limits.HOME_TIMELINE_SIZE]


def test_nobody_can_follow_themselves(alice):
    with pytest.raises(exceptions.CannotFollowSelf):
        services.follow_user(uid=alice, other_uid=alice)
    with pytest.raises(exceptions.CannotFollowSelf):
        services.unfollow_user(uid=alice, other_uid=alice)
    assert selectors.get_user(uid=alice).following == 0


def test_following_an_unknown_user_changes_nothing(alice):
    with pytest.raises(exceptions.UnknownUser):
        services.follow_user(uid=alice, other_uid=4242)
    with pytest.raises(exceptions.UnknownUser):
        services.follow_user(uid=4242, other_uid=alice)
    assert (selectors.get_user(uid=alice).following, selectors.get_user(uid=alice).followers) == (0, 0)
    assert not get_redis().exists(keys.user(4242), keys.following(4242), keys.followers(4242))


def test_racing_follows_keep_counts_equal_to_the_real_sets(alice, make_user):
    fans = [make_user() for _ in range(20)]
    barrier = threading.Barrier(40)

    def follow(fan: int) -> None:
        barrier.wait()
        services.follow_user(uid=fan, other_uid=alice)

    # Every fan follows twice at the same moment: the book's check-then-act counted such races twice.
    threads = [threading.Thread(target=follow, args=(fan,)) for fan in fans * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    client = get_redis()
    assert selectors.get_user(uid=alice).followers == client.zcard(keys.followers(alice)) == 20
    for fan in fans:
        assert selectors.get_user(uid=fan).following == client.zcard(keys.following(fan)) == 1


# --- deleting ----------------------------------------------------------------------------------------


def test_delete_hides_the_status_everywhere_it_is_read(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    keep = services.post_status(uid=alice, message="keep")
    gone = services.post_status(uid=alice, message="regret")

    assert services.delete_status(uid=alice, status_id=gone) is True

    for uid, timeline in ((alice, "home"), (alice, "profile"), (bob, "home")):
        assert [s["id"] for s in selectors.get_status_messages(uid=uid, timeline=timeline)] == [keep]
    with pytest.raises(exceptions.StatusNotFound):
        selectors.get_status(status_id=gone)
    assert selectors.get_user(uid=alice).posts == 1
    assert profile_ids(alice) == [keep] and home_timeline_of(alice) == [keep]


def test_only_the_author_can_delete(alice, bob):
    status_id = services.post_status(uid=alice, message="mine")
    with pytest.raises(exceptions.NotOwner):
        services.delete_status(uid=bob, status_id=status_id)
    assert selectors.get_status(status_id=status_id)["message"] == "mine"
    assert selectors.get_user(uid=alice).posts == 1


def test_deleting_twice_or_a_missing_status_raises_not_found(alice):
    status_id = services.post_status(uid=alice, message="once")
    services.delete_status(uid=alice, status_id=status_id)
    with pytest.raises(exceptions.StatusNotFound):
        services.delete_status(uid=alice, status_id=status_id)
    with pytest.raises(exceptions.StatusNotFound):
        services.delete_status(uid=alice, status_id=987654)
    assert selectors.get_user(uid=alice).posts == 0


def test_deleting_publishes_the_status_marked_deleted(alice):
    status_id = services.post_status(uid=alice, message="short-lived")
    pubsub = get_redis().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(keys.STREAM_CHANNEL)
    try:
        services.delete_status(uid=alice, status_id=status_id)
        # First the withdrawal from the timelines that held it (her own home), then the deletion itself.
        withdrawal = json.loads(next_message(pubsub)["data"])
        message = next_message(pubsub)
    finally:
        pubsub.close()
    assert (withdrawal["kind"], withdrawal["homes"], withdrawal["status"]) == (
        events.DELETE,
        [alice],
        {"id": status_id, "uid": alice},
    )
    event = json.loads(message["data"])
    assert (event["type"], event["v"]) == (events.STATUS_DELETED, events.VERSION)
    status = event["status"]
    assert (status["id"], status["uid"], status["message"]) == (status_id, alice, "short-lived")


@pytest.mark.parametrize("message", ["\u200b\u200d\ufeff", " \u200b ", "\u2060\u00a0\u3000", "\t\n\u200e"])
def test_a_post_of_invisible_characters_only_is_empty(alice, message):
    with pytest.raises(exceptions.InvalidMessage, match=exceptions.EMPTY_MESSAGE):
        services.post_status(uid=alice, message=message)
    assert selectors.get_user(uid=alice).posts == 0


def test_invisible_characters_around_a_post_are_trimmed_and_inner_ones_kept(alice):
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji made of three joined by ZWJ
    status_id = services.post_status(uid=alice, message=f"\u200b {family} \ufeff")
    assert selectors.get_status(status_id=status_id).message == family


def test_display_names_drop_control_characters_like_posts(make_user):
    uid = make_user("ctrl", "Eve\x00\x1b[31m Red\x7f")
    assert selectors.get_user(uid=uid).name == "Eve[31m Red"
    with pytest.raises(exceptions.InvalidName):
        services.create_user(login="blank", name="\u200b\u200d")


@pytest.mark.parametrize(
    "field", ["protected", "suspended", "private", "reply_count", "like_count", "in_reply_to_uid", "repost_of", "type"]
)
def test_fields_the_product_gives_meaning_to_cannot_be_set_by_callers(alice, field):
    with pytest.raises(exceptions.InvalidStatusData):
        services.post_status(uid=alice, message="forged", **{field: "1"})
    assert selectors.get_user(uid=alice).posts == 0

"""A follow's copy of the followee's newest posts (``services.author_copies.copy_author``, ``store.copies``): the posts
holding none of the fields the policy reads are copied on the server under their author's one verdict, and
only the others come back to be judged one by one."""

from __future__ import annotations

import pytest

from socialsite.redis_client import get_redis, is_cluster
from timelines import keys, limits, policy, services, store
from timelines.services import erasure
from timelines.tests.helpers import home_timeline_of, run_worker_burst


def test_a_follow_copies_plain_posts_and_judges_private_posts_and_reposts_one_by_one(alice, bob, carol, make_user):
    dave = make_user("dave", "Dave Grohl")
    first = services.post_status(uid=carol, message="first")
    services.set_private(uid=carol, private=True)
    for_followers = services.post_status(uid=carol, message="for followers")
    services.set_private(uid=carol, private=False)
    davess = services.post_status(uid=dave, message="dave's")
    services.repost_status(uid=carol, status_id=davess)
    [repost_of_dave] = home_timeline_of(carol)[:1]
    alices = services.post_status(uid=alice, message="alice's")
    services.repost_status(uid=carol, status_id=alices)
    [repost_of_alice] = home_timeline_of(carol)[:1]
    last = services.post_status(uid=carol, message="last")
    services.block_user(uid=bob, other_uid=dave)

    assert services.follow_user(uid=bob, other_uid=carol) is True

    # Bob follows Carol now, so her followers-only post is his; the repost of Dave, whom he blocked, is not.
    assert home_timeline_of(bob) == [last, repost_of_alice, for_followers, first]
    assert repost_of_dave not in home_timeline_of(bob)


def test_following_someone_you_mute_copies_none_of_their_posts(alice, bob):
    services.post_status(uid=alice, message="plain")
    services.set_private(uid=alice, private=True)
    services.post_status(uid=alice, message="for followers")
    services.set_private(uid=alice, private=False)
    services.mute_user(uid=bob, other_uid=alice)

    assert services.follow_user(uid=bob, other_uid=alice) is True

    assert home_timeline_of(bob) == []


def test_the_copy_holds_back_exactly_the_statuses_with_fields_the_policy_reads(alice, bob):
    plain = [services.post_status(uid=alice, message=f"plain {n}") for n in range(3)]
    services.set_private(uid=alice, private=True)
    private = services.post_status(uid=alice, message="private")
    names = policy.get_policy().status_fields

    copy = store.copies.copy_profile(
        keys.user(bob), keys.home_timeline(bob), alice, size=2, limit=10, copy_plain=True, names=names
    )

    assert copy.added == 3
    assert [(status_id, fields.get("visibility")) for status_id, _, fields in copy.held] == [(private, "private")]
    assert home_timeline_of(bob) == plain[::-1][:2]  # trimmed to its size, newest kept


def test_the_copy_writes_nothing_for_a_verdict_of_no_or_an_owner_that_is_gone(alice, bob):
    services.post_status(uid=alice, message="plain")
    missing_uid = bob + 1000
    names = policy.get_policy().status_fields
    size = limits.HOME_TIMELINE_SIZE

    refused = store.copies.copy_profile(
        keys.user(bob), keys.home_timeline(bob), alice, size=size, limit=size, copy_plain=False, names=names
    )
    gone = store.copies.copy_profile(
        keys.user(missing_uid),
        keys.home_timeline(missing_uid),
        alice,
        size=size,
        limit=size,
        copy_plain=True,
        names=names,
    )

    assert (refused.added, refused.held) == (0, [])
    assert gone.added == -1
    assert home_timeline_of(bob) == [] and home_timeline_of(missing_uid) == []


def test_posts_and_deletions_after_the_first_copy_keep_the_held_statuses_right(alice, bob, carol, make_user):
    dave, erin = make_user("dave", "Dave Grohl"), make_user("erin", "Erin Brockovich")
    services.post_status(uid=carol, message="before anyone followed")
    services.follow_user(uid=alice, other_uid=carol)  # the first copy of carol's profile
    davess = services.post_status(uid=dave, message="dave's")
    services.repost_status(uid=carol, status_id=davess)
    [repost_of_dave] = home_timeline_of(carol)[:1]
    bobs = services.post_status(uid=bob, message="bob's")
    services.repost_status(uid=carol, status_id=bobs)
    services.undo_repost(uid=carol, status_id=bobs)
    later = services.post_status(uid=carol, message="later")
    services.block_user(uid=erin, other_uid=dave)

    services.follow_user(uid=erin, other_uid=carol)

    assert repost_of_dave not in home_timeline_of(erin)
    assert home_timeline_of(erin)[0] == later and len(home_timeline_of(erin)) == 2


def test_a_held_status_older_than_the_first_copy_read_is_still_held_back(alice, bob, carol):
    services.set_private(uid=alice, private=True)
    private = services.post_status(uid=alice, message="private")
    services.set_private(uid=alice, private=False)
    plain = [services.post_status(uid=alice, message=f"plain {n}") for n in range(3)]
    names = policy.get_policy().status_fields

    def copy_into(uid: int) -> store.copies.Copy:
        return store.copies.copy_profile(
            keys.user(uid), keys.home_timeline(uid), alice, size=10, limit=3, copy_plain=True, names=names
        )

    first = copy_into(bob)  # reads the newest three only
    services.delete_status(uid=alice, status_id=plain[-1])
    second = copy_into(carol)  # the private post is among the newest three now

    assert first.held == [] and home_timeline_of(bob) == plain[::-1]
    assert [status_id for status_id, _, _ in second.held] == [private]
    assert home_timeline_of(carol) == plain[:2][::-1]


def test_deleting_an_account_removes_its_held_statuses(alice, bob):
    if is_cluster():
        pytest.skip("profile:held is made and kept on one server only; a cluster's copy reads every status")
    services.set_private(uid=alice, private=True)
    services.post_status(uid=alice, message="private")
    services.set_private(uid=alice, private=False)
    services.follow_user(uid=bob, other_uid=alice)
    assert get_redis().exists(keys.profile_held(alice))

    erasure.delete_account(uid=alice)
    run_worker_burst()

    assert not get_redis().exists(keys.profile_held(alice))


def test_following_again_does_not_bring_back_what_left_the_home(alice, bob):
    """The copy travels with the follow's own writes and copies only for the follow just made: following an
    account already followed writes nothing, so a post that left the home since (trimmed, say) stays out."""
    post = services.post_status(uid=bob, message="hello")
    assert services.follow_user(uid=alice, other_uid=bob) is True
    assert post in home_timeline_of(alice)
    get_redis().zrem(keys.home_timeline(alice), post)
    assert services.follow_user(uid=alice, other_uid=bob) is False
    assert post not in home_timeline_of(alice)


def test_a_copy_sent_with_a_follow_copies_only_for_that_follow(alice, bob):
    post = services.post_status(uid=bob, message="hello")
    services.follow_user(uid=alice, other_uid=bob)
    get_redis().zrem(keys.home_timeline(alice), post)
    names = policy.get_policy().status_fields
    size = limits.HOME_TIMELINE_SIZE
    call = store.copies.follow_copy_call(alice, bob, 1.0, size=size, limit=size, copy_plain=True, names=names)
    if is_cluster():
        assert call is None  # the copy takes round trips of its own there
        return
    assert call is not None
    name, call_keys, args = call
    # A follow made at another time than 1.0: nothing is copied.
    assert (
        store.copies.copy_from_reply(
            get_redis().evalsha(store.lua.script(name).sha, len(call_keys), *call_keys, *args), names
        ).added
        == 0
    )
    assert post not in home_timeline_of(alice)

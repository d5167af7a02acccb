"""Private accounts, follow requests, blocks and mutes (services.privacy, timelines.privacy), with personas."""

from __future__ import annotations

import pytest

from socialsite.redis_client import get_redis
from timelines import exceptions, keys, policy, selectors, services
from timelines.tests.helpers import home_timeline_of, run_worker_burst


@pytest.fixture
def dave(make_user):
    return make_user("dave", "Dave Grohl")


def home(uid: int) -> list[int]:
    return [entry.status.id for entry in selectors.get_status_messages(uid=uid, count=100)]


def profile(uid: int, viewer: int | None) -> list[int]:
    return [e.status.id for e in selectors.get_status_messages(uid=uid, timeline="profile", viewer_uid=viewer)]


def test_following_a_private_account_is_a_request_the_owner_approves(alice, bob):
    services.set_private(uid=alice, private=True)
    earlier = services.post_status(uid=alice, message="for followers")
    assert services.follow_user(uid=bob, other_uid=alice) == services.REQUESTED
    assert services.follow_user(uid=bob, other_uid=alice) == services.REQUESTED  # still pending, once
    assert [user.id for user in selectors.get_follow_requests(uid=alice)] == [bob]
    assert selectors.get_relationship(viewer=bob, other=alice).requested
    assert home(bob) == [] and selectors.get_user(uid=alice).followers == 0

    assert services.approve_follow_request(uid=alice, requester_uid=bob) is True
    assert selectors.is_following(uid=bob, other_uid=alice) and home(bob) == [earlier]
    assert selectors.get_follow_requests(uid=alice) == []
    assert [n.kind for n in selectors.get_notifications(uid=bob)] == ["follow_accepted"]
    assert [n.kind for n in selectors.get_notifications(uid=alice)] == ["follow_request"]


def test_a_request_can_be_rejected_or_withdrawn(alice, bob, carol):
    services.set_private(uid=alice, private=True)
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=carol, other_uid=alice)
    assert services.reject_follow_request(uid=alice, requester_uid=bob) is True
    assert services.withdraw_follow_request(uid=carol, other_uid=alice) is True
    assert selectors.get_follow_requests(uid=alice) == []
    assert not selectors.is_following(uid=bob, other_uid=alice)
    assert services.approve_follow_request(uid=alice, requester_uid=bob) is False


def test_private_posts_reach_approved_followers_only_and_keep_their_visibility(alice, bob, carol):
    services.follow_user(uid=bob, other_uid=alice)
    public = services.post_status(uid=alice, message="said in public")
    services.set_private(uid=alice, private=True)  # bob stays a follower
    private = services.post_status(uid=alice, message="said in private")
    assert home(bob) == [private, public]
    assert profile(alice, bob) == [private, public]
    assert profile(alice, carol) == [public] and profile(alice, None) == [public]
    services.set_private(uid=alice, private=False)
    later = services.post_status(uid=alice, message="public again")
    assert profile(alice, carol) == [later, public]  # posts keep the visibility they were written with
    with pytest.raises(exceptions.StatusNotFound):
        selectors.get_status(status_id=private, viewer_uid=carol)


def test_a_private_post_cannot_be_reposted(alice, bob):
    services.set_private(uid=alice, private=True)
    services.follow_user(uid=bob, other_uid=alice)
    services.approve_follow_request(uid=alice, requester_uid=bob)
    post = services.post_status(uid=alice, message="mine only")
    with pytest.raises(exceptions.CannotRepost):
        services.repost_status(uid=bob, status_id=post)
    assert selectors.get_status(status_id=post).repost_count == 0


def test_turning_public_approves_pending_requests(alice, bob, carol):
    services.set_private(uid=alice, private=True)
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=carol, other_uid=alice)
    services.set_private(uid=alice, private=False)
    assert {user.id for user in selectors.get_followers(uid=alice)} == {bob, carol}
    assert selectors.get_follow_requests(uid=alice) == []


def test_a_block_removes_follows_and_requests_both_ways_and_prevents_new_ones(alice, bob, carol):
    services.follow_user(uid=alice, other_uid=bob)
    services.follow_user(uid=bob, other_uid=alice)
    services.set_private(uid=carol, private=True)
    services.follow_user(uid=bob, other_uid=carol)
    assert services.block_user(uid=alice, other_uid=bob) is True
    assert services.block_user(uid=carol, other_uid=bob) is True
    assert not selectors.is_following(uid=alice, other_uid=bob) and not selectors.is_following(uid=bob, other_uid=alice)
    assert selectors.get_follow_requests(uid=carol) == []
    for follower, followee in ((alice, bob), (bob, alice)):
        with pytest.raises(exceptions.CannotFollow):
            services.follow_user(uid=follower, other_uid=followee)
    assert selectors.get_relationship(viewer=bob, other=alice).blocked_by
    assert [user.id for user in selectors.get_blocked_users(uid=alice)] == [bob]
    assert services.unblock_user(uid=alice, other_uid=bob) is True
    assert services.follow_user(uid=bob, other_uid=alice) is True


def test_blocked_people_see_none_of_each_others_posts_anywhere(alice, bob, carol):
    services.follow_user(uid=carol, other_uid=alice)
    services.follow_user(uid=carol, other_uid=bob)
    services.block_user(uid=alice, other_uid=bob)
    by_alice = services.post_status(uid=alice, message="alice speaks")
    by_bob = services.post_status(uid=bob, message="bob speaks to @alice")
    assert [n.kind for n in selectors.get_notifications(uid=alice)] == ["follow"]  # carol's; bob's mention: none
    services.repost_status(uid=carol, status_id=by_alice)
    assert by_alice not in home(bob) and by_bob not in home(alice)
    assert profile(alice, bob) == [] and profile(bob, alice) == []
    with pytest.raises(exceptions.StatusNotFound):
        selectors.get_thread(status_id=by_alice, viewer_uid=bob)
    reply = services.post_status(uid=carol, message="a reply", in_reply_to=by_alice)
    thread = selectors.get_thread(status_id=reply, viewer_uid=bob)
    assert [item.entry for item in thread.ancestors] == [None]  # the blocked author's post is not shown
    assert set(home(carol)) >= {by_alice, by_bob}  # third parties see both


def test_a_mute_hides_someone_from_feeds_and_notifications_only_and_unmute_refills(alice, bob):
    services.follow_user(uid=alice, other_uid=bob)
    before = services.post_status(uid=bob, message="before the mute")
    assert services.mute_user(uid=alice, other_uid=bob) is True
    during = services.post_status(uid=bob, message="hey @alice while muted")
    assert home(alice) == [] and selectors.get_notifications(uid=alice) == []
    assert during not in home_timeline_of(alice)  # the fan-out skipped her too
    assert profile(bob, alice) == [during, before]  # a mute hides nothing else
    assert selectors.get_thread(status_id=during, viewer_uid=alice).status.id == during
    assert services.unmute_user(uid=alice, other_uid=bob) is True
    run_worker_burst()  # the refill unmuting queued
    assert home(alice) == [during, before]


def test_relations_with_yourself_are_refused(alice):
    for service in (services.block_user, services.mute_user, services.unblock_user, services.unmute_user):
        with pytest.raises(exceptions.CannotTargetSelf):
            service(uid=alice, other_uid=alice)


def test_a_private_accounts_repost_reaches_its_approved_followers_only(alice, bob, carol, make_user):
    erin = make_user("erin", "Erin")
    services.set_private(uid=alice, private=True)
    services.follow_user(uid=bob, other_uid=alice)
    services.approve_follow_request(uid=alice, requester_uid=bob)
    watching = services.create_user_list(uid=carol, name="watching")
    services.follow_user_list(uid=carol, other_uid=alice, list_id=watching)
    shared = services.post_status(uid=erin, message="public news")
    assert services.repost_status(uid=alice, status_id=shared)
    by_alice = [e for e in selectors.get_status_messages(uid=bob, count=100) if e.reposted_by]
    assert [(e.status.id, e.reposted_by.id) for e in by_alice] == [(shared, alice)]
    repost = by_alice[0].entry_id
    assert profile(alice, bob) == [shared] and profile(alice, alice) == [shared]
    assert profile(alice, carol) == [] and profile(alice, None) == []
    assert selectors.get_list_status_messages(list_id=watching, viewer_uid=carol) == []
    assert get_redis().zscore(keys.list_timeline(watching), repost) is None  # the fan-out skipped carol's list
    assert not policy.may_see(viewer=None, status=selectors.get_status(status_id=repost), context=policy.LISTING)


def test_copies_and_rebuilds_of_a_timeline_judge_each_status_as_stored(alice, bob, carol, make_user):
    """Adding a private account to a list copies its recent posts and reposts into the list's timeline only for
    an approved follower; a rebuild of a stranger's list does not bring them back either."""
    erin = make_user("erin", "Erin")
    services.set_private(uid=alice, private=True)
    services.follow_user(uid=bob, other_uid=alice)
    services.approve_follow_request(uid=alice, requester_uid=bob)
    post = services.post_status(uid=alice, message="for my followers")
    services.repost_status(uid=alice, status_id=services.post_status(uid=erin, message="erin's news"))
    repost = next(e.entry_id for e in selectors.get_status_messages(uid=alice, count=10) if e.reposted_by)
    lists = {}
    for owner in (bob, carol):
        lists[owner] = services.create_user_list(uid=owner, name="alice")
        services.follow_user_list(uid=owner, other_uid=alice, list_id=lists[owner])

    def stored(list_id: int) -> set[int]:
        return {int(member) for member in get_redis().zrange(keys.list_timeline(list_id), 0, -1)}

    assert stored(lists[bob]) == {post, repost}
    assert stored(lists[carol]) == set()
    services.rebuild_timeline(list_id=lists[carol])
    assert stored(lists[carol]) == set()

"""Named lists of users (the book's exercises "Lists of users" and "Updating lists"): create, rename, delete,
members in and out, and list timelines fed by the same fan-out as home timelines."""

from __future__ import annotations

import pytest

from socialsite.redis_client import get_redis
from timelines import exceptions, keys, limits, queue, selectors, services
from timelines.tests.helpers import run_worker_burst


def list_timeline_of(list_id: int) -> list[int]:
    """Every status id stored in a list's timeline, newest first, deleted ones included."""
    return [int(member) for member in get_redis().zrevrange(keys.list_timeline(list_id), 0, -1)]


def lists_holding(list_ids: list[int], status_id: int) -> int:
    with get_redis().pipeline(transaction=False) as pipe:
        for list_id in list_ids:
            pipe.zscore(keys.list_timeline(list_id), status_id)
        return sum(score is not None for score in pipe.execute())


# --- creating, renaming, deleting --------------------------------------------------------------------


def test_create_rename_and_delete_a_list_keep_the_owners_count(alice):
    list_id = services.create_user_list(uid=alice, name="  Rock   climbers ")
    created = selectors.get_user_list(list_id=list_id)
    assert (created.name, created.uid, created.login, created.members) == ("Rock climbers", alice, "alice", 0)
    assert selectors.get_user(uid=alice).lists == 1

    services.rename_user_list(uid=alice, list_id=list_id, name="Climbers")
    assert [user_list.name for user_list in selectors.get_user_lists(uid=alice)] == ["Climbers"]

    assert services.delete_user_list(uid=alice, list_id=list_id) is True
    with pytest.raises(exceptions.UnknownList):
        selectors.get_user_list(list_id=list_id)
    assert selectors.get_user_lists(uid=alice) == []
    assert selectors.get_user(uid=alice).lists == 0
    with pytest.raises(exceptions.UnknownList):
        services.delete_user_list(uid=alice, list_id=list_id)


@pytest.mark.parametrize("name", ["", "   ", "x" * (limits.MAX_LIST_NAME_LENGTH + 1)])
def test_bad_list_names_are_refused_and_nothing_is_written(alice, name):
    with pytest.raises(exceptions.InvalidListName):
        services.create_user_list(uid=alice, name=name)
    list_id = services.create_user_list(uid=alice, name="Fine")
    with pytest.raises(exceptions.InvalidListName):
        services.rename_user_list(uid=alice, list_id=list_id, name=name)
    assert [user_list.name for user_list in selectors.get_user_lists(uid=alice)] == ["Fine"]


def test_only_the_owner_can_change_a_list(alice, bob, carol):
    list_id = services.create_user_list(uid=alice, name="Mine")
    services.follow_user_list(uid=alice, other_uid=carol, list_id=list_id)
    for change in (
        lambda: services.rename_user_list(uid=bob, list_id=list_id, name="Ours"),
        lambda: services.delete_user_list(uid=bob, list_id=list_id),
        lambda: services.follow_user_list(uid=bob, other_uid=bob, list_id=list_id),
        lambda: services.unfollow_user_list(uid=bob, other_uid=carol, list_id=list_id),
    ):
        with pytest.raises(exceptions.NotListOwner):
            change()
    user_list = selectors.get_user_list(list_id=list_id)
    assert (user_list.name, user_list.members) == ("Mine", 1)


def test_unknown_lists_and_users_raise(alice):
    with pytest.raises(exceptions.UnknownList):
        services.follow_user_list(uid=alice, other_uid=alice, list_id=404)
    with pytest.raises(exceptions.UnknownList):
        selectors.get_list_status_messages(list_id=404)
    with pytest.raises(exceptions.UnknownUser):
        services.create_user_list(uid=4242, name="Ghost's")
    list_id = services.create_user_list(uid=alice, name="Real")
    with pytest.raises(exceptions.UnknownUser):
        services.follow_user_list(uid=alice, other_uid=4242, list_id=list_id)
    assert selectors.get_user_list(list_id=list_id).members == 0
    assert not get_redis().exists(keys.listed_in(4242), keys.user(4242))


def test_limits_on_lists_per_user_and_members_per_list(alice, bob, carol, monkeypatch):
    # In this process only: these limits are checked by the service the test calls, never by a worker.
    monkeypatch.setattr(limits, "MAX_LISTS_PER_USER", 2)
    monkeypatch.setattr(limits, "MAX_LIST_MEMBERS", 1)
    first = services.create_user_list(uid=alice, name="One")
    services.create_user_list(uid=alice, name="Two")
    with pytest.raises(exceptions.TooManyLists):
        services.create_user_list(uid=alice, name="Three")
    assert selectors.get_user(uid=alice).lists == 2

    services.follow_user_list(uid=alice, other_uid=bob, list_id=first)
    with pytest.raises(exceptions.ListFull):
        services.follow_user_list(uid=alice, other_uid=carol, list_id=first)
    assert selectors.get_user(uid=carol).listed == 0
    assert services.follow_user_list(uid=alice, other_uid=bob, list_id=first) is False  # already in: not "full"


# --- members -----------------------------------------------------------------------------------------


def test_adding_copies_recent_posts_and_removing_cleans_them_out(alice, bob, carol):
    bobs = [services.post_status(uid=bob, message=f"bob {i}") for i in range(3)]
    carols = services.post_status(uid=carol, message="carol")
    list_id = services.create_user_list(uid=alice, name="Builders")

    assert services.follow_user_list(uid=alice, other_uid=bob, list_id=list_id) is True
    assert services.follow_user_list(uid=alice, other_uid=bob, list_id=list_id) is False
    assert list_timeline_of(list_id) == list(reversed(bobs))
    assert selectors.get_user_list(list_id=list_id).members == 1
    assert selectors.get_user(uid=bob).listed == 1
    assert [user.id for user in selectors.get_list_members(list_id=list_id)] == [bob]
    # Lists are not follows: alice's home and bob's followers are untouched.
    assert selectors.get_user(uid=bob).followers == 0 and carols not in list_timeline_of(list_id)

    assert services.unfollow_user_list(uid=alice, other_uid=bob, list_id=list_id) is True
    assert services.unfollow_user_list(uid=alice, other_uid=bob, list_id=list_id) is False
    assert list_timeline_of(list_id) == []
    assert selectors.get_user_list(list_id=list_id).members == 0
    assert selectors.get_user(uid=bob).listed == 0


def test_list_timelines_get_new_posts_of_members_only(alice, bob, carol):
    list_id = services.create_user_list(uid=alice, name="Just bob")
    services.follow_user_list(uid=alice, other_uid=bob, list_id=list_id)
    services.follow_user_list(uid=alice, other_uid=alice, list_id=list_id)  # owners may list themselves
    first = services.post_status(uid=bob, message="bob")
    services.post_status(uid=carol, message="carol is not in the list")
    second = services.post_status(uid=alice, message="alice")

    page = selectors.get_list_status_messages(list_id=list_id)
    assert [status["id"] for status in page] == [second, first]
    assert list_timeline_of(list_id) == [second, first]


def test_the_list_picker_shows_which_lists_hold_someone(alice, bob):
    friends = services.create_user_list(uid=alice, name="friends")
    work = services.create_user_list(uid=alice, name="Work")
    services.follow_user_list(uid=alice, other_uid=bob, list_id=work)
    choices = selectors.get_list_choices(uid=alice, member_uid=bob)
    assert [(choice.list.id, choice.is_member) for choice in choices] == [(friends, False), (work, True)]


@pytest.mark.slow
def test_a_deleted_list_is_gone_at_once_and_forgotten_by_its_members(alice, bob, carol, make_user):
    """Past the first POSTS_PER_PASS members, a real worker forgets the list for the rest."""
    list_id = services.create_user_list(uid=alice, name="Doomed")
    members = [alice, bob, carol, *(make_user() for _ in range(limits.POSTS_PER_PASS - 2))]
    for member in members:
        services.follow_user_list(uid=alice, other_uid=member, list_id=list_id)
    services.post_status(uid=bob, message="in the doomed list")

    services.delete_user_list(uid=alice, list_id=list_id)
    assert not get_redis().exists(keys.user_list(list_id))
    assert not get_redis().exists(keys.list_timeline(list_id))
    assert queue.get_queue().count == 1
    forgotten = [member for member in members if not get_redis().exists(keys.listed_in(member))]
    assert len(forgotten) == limits.POSTS_PER_PASS  # the first pass, inline; one member is left to the job
    # A late fan-out to the deleted list must not bring its timeline back.
    services.post_status(uid=carol, message="after the delete")
    assert not get_redis().exists(keys.list_timeline(list_id))

    run_worker_burst()
    assert not get_redis().exists(keys.list_members(list_id))
    assert [selectors.get_user(uid=member).listed for member in members] == [0] * len(members)
    assert not any(get_redis().exists(keys.listed_in(member)) for member in members)


# --- fan-out past the first thousand lists ------------------------------------------------------------


LISTS = 1_100


@pytest.mark.slow
def test_posts_reach_every_list_past_the_first_thousand_and_deletion_leaves_no_id(alice, bob, carol, make_user):
    """carol is in 1,100 lists of two owners: a post reaches the first 1,000 list timelines at once and the
    rest through a real worker; a post by a non-member reaches none; deleting carol's post cleans it out of
    every list timeline (and follower's home), past the first 1,000 too."""
    fan = make_user("fan")
    services.follow_user(uid=fan, other_uid=carol)
    list_ids = []
    for i in range(LISTS):
        owner = alice if i % 2 else bob
        list_id = services.create_user_list(uid=owner, name=f"list {i}")
        services.follow_user_list(uid=owner, other_uid=carol, list_id=list_id)
        list_ids.append(list_id)
    assert selectors.get_user(uid=carol).listed == LISTS

    status_id = services.post_status(uid=carol, message="to every list")
    outsider = services.post_status(uid=alice, message="alice is in none of them")
    # Lists are reached in the order carol was added to them: the first POSTS_PER_PASS before post returns.
    assert lists_holding(list_ids[: limits.POSTS_PER_PASS], status_id) == limits.POSTS_PER_PASS
    assert lists_holding(list_ids[limits.POSTS_PER_PASS :], status_id) == 0

    run_worker_burst()
    assert lists_holding(list_ids, status_id) == LISTS
    assert lists_holding(list_ids, outsider) == 0
    assert list_timeline_of(list_ids[-1]) == [status_id]

    services.delete_status(uid=carol, status_id=status_id)
    assert lists_holding(list_ids[: limits.POSTS_PER_PASS], status_id) == 0
    assert lists_holding(list_ids[limits.POSTS_PER_PASS :], status_id) == LISTS - limits.POSTS_PER_PASS
    run_worker_burst()
    assert lists_holding(list_ids, status_id) == 0
    assert status_id not in get_redis().zrange(keys.home_timeline(fan), 0, -1)

"""Refilling timelines (the book's exercise in 8.3): after an unfollow or a removal from a list, a deferred,
batched job fills the timeline back up from the profiles still shown; ``rebuild_home_timeline`` does the same
on demand, with the clean-up of what does not belong."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from socialsite.redis_client import get_redis
from timelines import keys, limits, queue, selectors, services
from timelines.tests.helpers import home_timeline_of, run_worker_burst
from timelines.tests.test_lists import list_timeline_of

SIZE = limits.HOME_TIMELINE_SIZE


def newest(ids: list[int], n: int = SIZE) -> list[int]:
    """The ``n`` newest of ``ids`` (status ids grow with posting time), newest first."""
    return sorted(ids, reverse=True)[:n]


@pytest.fixture
def busy_pair(alice, bob, carol):
    """bob follows alice and carol, who posted 1,100 and 400 statuses, interleaved; bob wrote 5 himself."""
    alices, carols, bobs = [], [], []
    for i in range(1_100):
        alices.append(services.post_status(uid=alice, message=f"alice {i}"))
        if i % 3 == 0 and len(carols) < 400:
            carols.append(services.post_status(uid=carol, message=f"carol {i}"))
        if i % 200 == 0:
            bobs.append(services.post_status(uid=bob, message=f"bob {i}"))
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=bob, other_uid=carol)
    return alices, carols, bobs


@pytest.mark.slow
def test_unfollow_returns_at_once_and_the_refill_fills_home_back_in_order(alice, bob, carol, busy_pair):
    alices, carols, bobs = busy_pair
    assert home_timeline_of(bob) == newest(alices + carols + bobs)

    services.unfollow_user(uid=bob, other_uid=carol)
    left = home_timeline_of(bob)
    assert not set(left) & set(carols)
    assert len(left) < SIZE  # nothing refilled yet: unfollow only queued the refill
    assert queue.get_queue().count == 1

    run_worker_burst()
    assert home_timeline_of(bob) == newest(alices + bobs)
    assert [status["id"] for status in selectors.get_status_messages(uid=bob, count=5)] == newest(alices + bobs, 5)


def test_a_refill_step_reads_a_bounded_number_of_profiles_and_carries_its_cursor(bob, make_user):
    followees = [make_user() for _ in range(2 * limits.REFILL_USERS_STEP + 30)]
    posted = []
    for followee in followees:
        services.follow_user(uid=bob, other_uid=followee)
        posted.append(services.post_status(uid=followee, message="hi"))
    get_redis().delete(keys.home_timeline(bob))

    steps, cursor = [], None
    while True:
        step = services.refill_timeline(uid=bob, cursor=cursor, full=True)
        steps.append(step)
        if step.cursor is None:
            break
        cursor = step.cursor
    # bob's own profile is read by the first step only.
    assert [step.sources for step in steps] == [limits.REFILL_USERS_STEP + 1, limits.REFILL_USERS_STEP, 30]
    assert home_timeline_of(bob) == newest(posted)
    assert queue.get_queue().count == 0  # without a run number the caller drives the steps

    # Idempotent: running a step again changes nothing.
    again = services.refill_timeline(uid=bob, cursor=steps[0].cursor, full=True)
    assert again.added == 0 and home_timeline_of(bob) == newest(posted)


def test_a_newer_refill_run_supersedes_an_older_one(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    posted = [services.post_status(uid=alice, message=f"{i}") for i in range(3)]
    get_redis().delete(keys.home_timeline(bob))
    old_run = services.request_refill(uid=bob)
    new_run = services.request_refill(uid=bob)
    assert new_run == old_run + 1
    assert services.refill_timeline(uid=bob, run=old_run).sources == 0
    assert home_timeline_of(bob) == []
    assert services.refill_timeline(uid=bob, run=new_run).sources == 2
    assert home_timeline_of(bob) == newest(posted)


def test_a_refill_never_brings_back_unfollowed_or_deleted_posts(alice, bob, carol):
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=bob, other_uid=carol)
    keep = services.post_status(uid=alice, message="keep")
    gone = services.post_status(uid=alice, message="deleted")
    services.post_status(uid=carol, message="carol")
    services.unfollow_user(uid=bob, other_uid=carol)
    services.delete_status(uid=alice, status_id=gone)
    get_redis().delete(keys.home_timeline(bob))
    run_worker_burst()  # the refill queued by the unfollow runs on the emptied home
    assert home_timeline_of(bob) == [keep]


@pytest.mark.slow
def test_removing_a_member_refills_the_list_timeline(alice, busy_pair, bob, carol):
    alices, carols, _ = busy_pair
    list_id = services.create_user_list(uid=bob, name="Both")
    services.follow_user_list(uid=bob, other_uid=alice, list_id=list_id)
    services.follow_user_list(uid=bob, other_uid=carol, list_id=list_id)
    assert list_timeline_of(list_id) == newest(alices + carols)

    services.unfollow_user_list(uid=bob, other_uid=carol, list_id=list_id)
    assert len(list_timeline_of(list_id)) < SIZE
    run_worker_burst()
    assert list_timeline_of(list_id) == newest(alices)


def test_rebuild_home_timeline_repairs_a_damaged_home(alice, bob, carol):
    services.follow_user(uid=bob, other_uid=alice)
    mine = services.post_status(uid=bob, message="mine")
    theirs = [services.post_status(uid=alice, message=f"{i}") for i in range(5)]
    stranger = services.post_status(uid=carol, message="not followed")
    client = get_redis()
    client.zrem(keys.home_timeline(bob), theirs[1], mine)  # lost entries
    client.zadd(keys.home_timeline(bob), {"987654": 1.0, str(stranger): 2.0})  # a zombie and a stranger

    out = io.StringIO()
    call_command("rebuild_home_timeline", "BOB", stdout=out, verbosity=0)
    assert home_timeline_of(bob) == newest([mine, *theirs])
    assert "2 removed" in out.getvalue()


def test_rebuild_home_timeline_all_and_with_lists(alice, bob, carol):
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=carol, other_uid=alice)
    list_id = services.create_user_list(uid=carol, name="Alice only")
    services.follow_user_list(uid=carol, other_uid=alice, list_id=list_id)
    posted = [services.post_status(uid=alice, message=f"{i}") for i in range(3)]
    for key in (keys.home_timeline(bob), keys.home_timeline(carol), keys.list_timeline(list_id)):
        get_redis().delete(key)

    call_command("rebuild_home_timeline", "--all", "--lists", stdout=io.StringIO(), verbosity=0)
    assert home_timeline_of(bob) == home_timeline_of(carol) == list_timeline_of(list_id) == newest(posted)


def test_rebuild_home_timeline_needs_a_known_login_or_all():
    with pytest.raises(CommandError, match="No user"):
        call_command("rebuild_home_timeline", "nobody", stdout=io.StringIO())
    with pytest.raises(CommandError):
        call_command("rebuild_home_timeline", stdout=io.StringIO())

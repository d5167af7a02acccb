"""Fan-out (book listing 8.7): the first POSTS_PER_PASS followers at once, the rest through real RQ workers,
with no follower lost when a job fails or its worker is killed."""

from __future__ import annotations

import pytest
from rq.job import JobStatus
from rq.registry import StartedJobRegistry

from socialsite.redis_client import get_job_redis
from socialsite.tests import redis_snapshot
from timelines import keys, limits, queue, services, store
from timelines.tests.helpers import (
    home_timeline_of,
    homes_holding,
    job_status,
    kill_worker,
    retries_left,
    run_worker_burst,
    start_worker,
    stop,
    until_redis_answers,
    wait_until,
)

pytestmark = pytest.mark.slow

FOLLOWERS = 1_500  # the first pass's 1,000 inline, the other 500 in a job

POSTS = limits.POSTS_PER_PASS


@pytest.fixture(scope="module")
def fan_club() -> tuple[int, list[int], redis_snapshot.Snapshot]:
    """alice and her FOLLOWERS fans, made once through the services (sign-up, then follow, in order) and saved:
    making them costs 1,500 sign-ups and follows, putting them back a few pipelines."""
    redis_snapshot.flush()
    star = services.create_user(login="alice", name="Alice Liddell")
    fans = []
    for number in range(FOLLOWERS):
        fan = services.create_user(login=f"fan{number}", name=f"Fan {number}")
        services.follow_user(uid=fan, other_uid=star)
        fans.append(fan)
    return star, fans, redis_snapshot.take()


@pytest.fixture
def star_with_fans(fan_club, redis_db):
    """The fan club as the services made it, put back after this test's flush (each test changes it)."""
    star, fans, saved = fan_club
    redis_snapshot.restore(saved)
    assert redis_db.zcard(keys.followers(star)) == FOLLOWERS
    return star, list(fans)


def test_fan_out_reaches_the_first_thousand_at_once_and_everyone_after_the_worker(star_with_fans):
    star, fans = star_with_fans
    status_id = services.post_status(uid=star, message="to all my fans")

    # Followers are reached in the order they followed: the first POSTS_PER_PASS before post_status returns.
    assert homes_holding(fans[: limits.POSTS_PER_PASS], status_id) == limits.POSTS_PER_PASS
    assert homes_holding(fans[limits.POSTS_PER_PASS :], status_id) == 0
    assert queue.get_queue().count == 1

    run_worker_burst()

    assert homes_holding(fans, status_id) == FOLLOWERS
    assert queue.get_queue().count == 0


def test_home_timelines_never_exceed_their_size(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    posted = [services.post_status(uid=alice, message=f"{i}") for i in range(limits.HOME_TIMELINE_SIZE + 15)]
    for uid in (alice, bob):
        assert home_timeline_of(uid) == list(reversed(posted))[: limits.HOME_TIMELINE_SIZE]


def test_running_a_fan_out_batch_twice_changes_nothing(star_with_fans):
    star, fans = star_with_fans
    status_id = services.post_status(uid=star, message="once only")
    run_worker_burst()
    before = {fan: home_timeline_of(fan) for fan in fans[::250]}
    posted = float(store.statuses.get_status(status_id)["posted"])
    reached = services.syndicate_status(uid=star, status_id=status_id, posted=posted)
    assert reached == limits.POSTS_PER_PASS
    # The follow-up batch already ran under the same job id: no second chain is queued.
    assert queue.get_queue().count == 0
    assert {fan: home_timeline_of(fan) for fan in fans[::250]} == before


def test_a_fan_out_job_for_a_deleted_status_stops(star_with_fans):
    star, fans = star_with_fans
    status_id = services.post_status(uid=star, message="oops")
    services.delete_status(uid=star, status_id=status_id)
    run_worker_burst()
    assert homes_holding(fans[limits.POSTS_PER_PASS :], status_id) == 0


def test_a_failing_fan_out_job_is_retried_and_loses_no_follower(star_with_fans, redis_db):
    star, fans = star_with_fans
    victim = fans[1_200]
    # Damage one follower's home so the batch holding it fails with WRONGTYPE.
    redis_db.set(keys.home_timeline(victim), "not a timeline")
    status_id = services.post_status(uid=star, message="through thick and thin")
    worker = start_worker()
    try:
        job_id = queue.delivery_job_id(audience="followers", status_id=status_id, after=str(fans[POSTS - 1]))
        assert wait_until(lambda: retries_left(job_id) < queue.MAX_RETRIES, timeout=30), "never retried"
        redis_db.delete(keys.home_timeline(victim))  # the damage is repaired; the next retry succeeds
        assert wait_until(lambda: homes_holding(fans, status_id) == FOLLOWERS, timeout=60)
    finally:
        stop(worker)
    assert homes_holding(fans, status_id) == FOLLOWERS


def test_a_fan_out_job_whose_worker_is_killed_is_requeued_and_finishes(star_with_fans, redis_db):
    star, fans = star_with_fans
    status_id = services.post_status(uid=star, message="survive a crash")
    job_id = queue.delivery_job_id(audience="followers", status_id=status_id, after=str(fans[POSTS - 1]))
    registry = StartedJobRegistry(queue.QUEUE_NAME, connection=get_job_redis())

    doomed = start_worker()
    try:
        assert wait_until(lambda: job_status(job_id) == JobStatus.STARTED, timeout=30, interval=0.0005)
        # Freeze every client for a moment so the job cannot finish, then kill its worker and work-horse.
        redis_db.execute_command("CLIENT", "PAUSE", 1000, "ALL")
        kill_worker(doomed)
    finally:
        stop(doomed)
    until_redis_answers()
    assert registry.get_job_ids(cleanup=False), "the killed job should still be marked as started"
    assert homes_holding(fans, status_id) < FOLLOWERS

    survivor = start_worker()
    try:
        assert wait_until(lambda: homes_holding(fans, status_id) == FOLLOWERS, timeout=90, interval=0.5)
    finally:
        stop(survivor)
    assert retries_left(job_id) == queue.MAX_RETRIES - 1
    for fan in fans[::100]:
        assert home_timeline_of(fan).count(status_id) == 1

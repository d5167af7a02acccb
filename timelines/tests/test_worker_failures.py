"""Deferred work that survives kill -9: clean-up and refill jobs whose worker dies are requeued and finish with
only the site's usual workers (``rqworker --with-scheduler``) running, as fan-out jobs do (test_fanout.py),
and so is a job whose worker died right after taking it off the queue."""

from __future__ import annotations

import os
import signal

import pytest
from rq.intermediate_queue import IntermediateQueue
from rq.job import JobStatus

from socialsite.redis_client import get_job_redis, get_redis
from socialsite.testing import WAIT_SECONDS
from timelines import keys, limits, queue, services, worker
from timelines.tests.helpers import (
    descendants,
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

FOLLOWERS = 1_100
ATTEMPTS = 3
# Abandoned jobs come back once their heartbeat expires and a maintenance pass runs (timelines.worker).
RECOVERY_SECONDS = 90


def kill_when_started(job_id: str) -> bool:
    """Start a worker, wait until it runs ``job_id``, then freeze Redis for a moment so the job cannot finish
    and kill -9 the worker with its work-horse. False when the job finished before it was seen running (a short
    job on a busy machine can run between two looks): the caller tries again with a new job."""
    doomed = start_worker()
    try:
        seen = wait_until(
            lambda: job_status(job_id) in (JobStatus.STARTED, JobStatus.FINISHED), timeout=WAIT_SECONDS, interval=0.0005
        )
        assert seen, f"{job_id} never started"
        if job_status(job_id) != JobStatus.STARTED:
            return False
        get_redis().execute_command("CLIENT", "PAUSE", 1000, "ALL")
        kill_worker(doomed)
    finally:
        stop(doomed)
    until_redis_answers()
    return True


def test_a_clean_up_job_whose_worker_is_killed_is_requeued_and_finishes(alice, followers_of):
    fans = followers_of(alice, FOLLOWERS)
    for _ in range(ATTEMPTS):
        status_id = services.post_status(uid=alice, message="soon gone")
        run_worker_burst()
        assert homes_holding(fans, status_id) == FOLLOWERS

        services.delete_status(uid=alice, status_id=status_id)
        assert homes_holding(fans, status_id) == FOLLOWERS - limits.POSTS_PER_PASS
        job_id = queue.withdrawal_job_id(
            audience="followers", status_id=status_id, after=str(fans[limits.POSTS_PER_PASS - 1])
        )
        if kill_when_started(job_id):
            break
    else:
        pytest.fail(f"the clean-up job finished before it was seen running, {ATTEMPTS} times")
    assert homes_holding(fans, status_id) == FOLLOWERS - limits.POSTS_PER_PASS

    survivor = start_worker()
    try:
        assert wait_until(lambda: homes_holding(fans, status_id) == 0, timeout=RECOVERY_SECONDS, interval=0.5)
    finally:
        stop(survivor)
    assert retries_left(job_id) == queue.MAX_RETRIES - 1


def test_a_refill_job_whose_worker_is_killed_mid_run_is_requeued_and_finishes(bob, make_user):
    """bob follows 250 people with 5 posts each; after an unfollow, the refill's second step (cursor after the
    100th followee) is killed; the run resumes from that cursor and ends with the newest 1,000 posts left."""
    followees = [make_user() for _ in range(2 * limits.REFILL_USERS_STEP + 50)]
    for followee in followees:
        services.follow_user(uid=bob, other_uid=followee)
    posted: dict[int, list[int]] = {followee: [] for followee in followees}
    for round_ in range(5):
        for followee in followees:
            posted[followee].append(services.post_status(uid=followee, message=f"{round_}"))
    dropped: set[int] = set()
    step = limits.REFILL_USERS_STEP
    for attempt in range(ATTEMPTS):
        # Each attempt unfollows one more person: a new refill run, whose second step is the job to kill.
        dropped.add(followees[-1 - attempt])
        services.unfollow_user(uid=bob, other_uid=followees[-1 - attempt])
        expected = sorted((sid for f, ids in posted.items() if f not in dropped for sid in ids), reverse=True)
        expected = expected[: limits.HOME_TIMELINE_SIZE]
        assert home_timeline_of(bob) != expected

        run = int(get_redis().get(keys.refill_run(keys.home_timeline(bob))))
        cursor_member = get_redis().zrange(keys.following(bob), step - 1, step - 1)[0]
        if kill_when_started(queue.refill_job_id(run=run, after=cursor_member, uid=bob)):
            break
    else:
        pytest.fail(f"the refill step finished before it was seen running, {ATTEMPTS} times")
    assert home_timeline_of(bob) != expected

    survivor = start_worker()
    try:
        assert wait_until(lambda: home_timeline_of(bob) == expected, timeout=RECOVERY_SECONDS, interval=0.5)
    finally:
        stop(survivor)


def test_a_job_left_by_a_worker_that_died_after_dequeuing_it_comes_back_within_seconds(alice, bob):
    """A worker killed between taking a job (BLMOVE into RQ's intermediate queue) and marking it started leaves
    it nowhere else. RQ requeues it after a minute or more; timelines.worker does it within two passes."""
    services.follow_user(uid=bob, other_uid=alice)
    posted = [services.post_status(uid=alice, message=f"{i}") for i in range(3)]
    get_redis().delete(keys.home_timeline(bob))
    services.request_refill(uid=bob)
    job_queue = queue.get_queue()
    # Exactly what the dying worker's BLMOVE did.
    moved = get_job_redis().lmove(job_queue.key, IntermediateQueue.get_intermediate_queue_key(job_queue.key))
    assert moved is not None and job_queue.count == 0

    survivor = start_worker()
    try:
        # Two maintenance passes, with room for a busy machine, and still well before RQ's own requeue.
        back = wait_until(
            lambda: home_timeline_of(bob) == sorted(posted, reverse=True),
            timeout=2 * worker.MAINTENANCE_INTERVAL + WAIT_SECONDS,
            interval=0.2,
        )
        assert back, "the job left in the intermediate queue never came back"
    finally:
        stop(survivor)
    assert get_job_redis().llen(IntermediateQueue.get_intermediate_queue_key(job_queue.key)) == 0


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting to be reaped has stopped running)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_the_scheduler_of_a_killed_worker_stops_with_it():
    """``rqworker --with-scheduler`` forks RQ's scheduler; kill -9 of the worker must not leave it running
    without a parent (it did until Redis stopped)."""
    doomed = start_worker()
    scheduler = None
    try:
        # The forked scheduler keeps the worker's command line; other children come and go (find_library's
        # ldconfig, for one), so they are not taken for it.
        def forked() -> list[int]:
            return [pid for pid in descendants(doomed.pid) if "rqworker" in _cmdline(pid)]

        # The same single child on two looks 0.2 s apart: a short-lived fork that still carries the command line
        # (seen once on the cluster run: one child, then none) is not taken for the scheduler.
        seen: list[int] = []

        def one_scheduler() -> bool:
            now = forked()
            steady = len(now) == 1 and now == seen
            seen[:] = now
            return steady

        assert wait_until(one_scheduler, timeout=WAIT_SECONDS, interval=0.2), "the worker forked no scheduler"
        [scheduler] = seen
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait(timeout=WAIT_SECONDS)
        assert wait_until(lambda: not _alive(scheduler), timeout=WAIT_SECONDS), "the scheduler outlived its worker"
    finally:
        stop(doomed)
        if scheduler is not None and _alive(scheduler):
            os.kill(scheduler, signal.SIGKILL)

"""Deferred work of the social graph, run by RQ workers (``python manage.py rqworker``) on the site's Redis.

A fan-out to more than ``POSTS_PER_PASS`` followers continues here, one batch per job, each job carrying the
cursor it resumes from (book listing 8.7). Jobs are idempotent, so running one twice changes nothing; each is
enqueued under a deterministic id with ``unique=True``, so a re-run cannot start a second chain. A job that
raises is retried (``Retry``); a job whose worker died is found by the worker's maintenance pass and retried
as well (see ``timelines.worker``).
"""

from __future__ import annotations

import contextlib

import django_rq
from rq import Retry
from rq.exceptions import DuplicateJobError
from rq.queue import Queue

from socialsite.redis_client import get_job_redis

QUEUE_NAME = "default"
MAX_RETRIES = 10
# Retry at once, then back off a little; a failing Redis gets a minute to come back before the job gives up.
RETRY_INTERVALS = [0, 1, 2, 5, 10, 10, 10, 10, 10, 10]
JOB_TIMEOUT_SECONDS = 300


def get_queue() -> Queue:
    return django_rq.get_queue(QUEUE_NAME, connection=get_job_redis())


def enqueue_syndication(*, uid: int, status_id: int, posted: float, cursor: tuple[float, str]) -> None:
    """Queue the next fan-out batch of ``status_id`` after follower ``cursor`` (score, member)."""
    score, member = cursor
    # A re-run of the previous batch finds this one already queued or done and must not fork the chain.
    with contextlib.suppress(DuplicateJobError):
        get_queue().enqueue(
            syndicate_status,
            kwargs={
                "uid": uid,
                "status_id": status_id,
                "posted": posted,
                "cursor_score": score,
                "cursor_member": member,
            },
            job_id=f"syndicate-{status_id}-after-{member}",
            unique=True,
            retry=Retry(max=MAX_RETRIES, interval=RETRY_INTERVALS),
            job_timeout=JOB_TIMEOUT_SECONDS,
            description=f"fan out status {status_id} after follower {member}",
        )


def syndicate_status(*, uid: int, status_id: int, posted: float, cursor_score: float, cursor_member: str) -> int:
    """Job: one fan-out batch. Stops quietly when the status was deleted meanwhile."""
    from timelines import selectors, services

    if not selectors.status_exists(status_id=status_id):
        return 0
    return services.syndicate_status(uid=uid, status_id=status_id, posted=posted, cursor=(cursor_score, cursor_member))

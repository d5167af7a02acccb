"""Deferred work of the social graph, run by RQ workers (``python manage.py rqworker``) on the site's Redis.

Every job is one batch of a service and carries the cursor it resumes from: a fan-out to more than
``POSTS_PER_PASS`` followers or lists (book listing 8.7 and the exercise "Updating lists"), the clean-up of a
deleted status from the same audience ("Cleaning out deleted IDs"), a refill of a home or list timeline
("Refilling timelines"), and forgetting a deleted list in its members' list:out:{uid}. Jobs are idempotent, so
running one twice changes nothing; each is enqueued under a deterministic id with ``unique=True``, so a re-run
of a batch cannot start a second chain. A job that raises is retried (``Retry``); a job whose worker died is
found by the worker's maintenance pass and retried as well (see ``timelines.worker``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

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


def _enqueue(func: Callable[..., Any], *, job_id: str, description: str, kwargs: dict[str, Any]) -> None:
    # A re-run of the previous batch finds this one already queued or done and must not fork the chain.
    with contextlib.suppress(DuplicateJobError):
        get_queue().enqueue(
            func,
            kwargs=kwargs,
            job_id=job_id,
            unique=True,
            retry=Retry(max=MAX_RETRIES, interval=RETRY_INTERVALS),
            job_timeout=JOB_TIMEOUT_SECONDS,
            description=description,
        )


def _audience_name(on_lists: bool) -> str:
    return "lists" if on_lists else "followers"


# --- fan-out -----------------------------------------------------------------------------------------


def enqueue_syndication(
    *, uid: int, status_id: int, posted: float, cursor: tuple[float, str], on_lists: bool = False
) -> None:
    """Queue the next fan-out batch of ``status_id`` after follower (or list) ``cursor`` (score, member)."""
    score, member = cursor
    _enqueue(
        syndicate_status,
        job_id=f"syndicate-{'lists-' if on_lists else ''}{status_id}-after-{member}",
        description=f"fan out status {status_id} to {_audience_name(on_lists)} after {member}",
        kwargs={
            "uid": uid,
            "status_id": status_id,
            "posted": posted,
            "cursor_score": score,
            "cursor_member": member,
            "on_lists": on_lists,
        },
    )


def syndicate_status(
    *, uid: int, status_id: int, posted: float, cursor_score: float, cursor_member: str, on_lists: bool = False
) -> int:
    """Job: one fan-out batch. ``services.syndicate_status`` itself notices a status deleted meanwhile, takes
    it back out of the batch's timelines and ends the chain."""
    from timelines import services

    return services.syndicate_status(
        uid=uid, status_id=status_id, posted=posted, cursor=(cursor_score, cursor_member), on_lists=on_lists
    )


# --- cleaning out deleted statuses ---------------------------------------------------------------------


def enqueue_clean_timelines(*, uid: int, status_id: int, cursor: tuple[float, str], on_lists: bool) -> None:
    """Queue the next batch cleaning deleted ``status_id`` out of timelines after ``cursor`` (score, member)."""
    score, member = cursor
    _enqueue(
        clean_timelines,
        job_id=f"clean-{_audience_name(on_lists)}-{status_id}-after-{member}",
        description=f"clean deleted status {status_id} out of {_audience_name(on_lists)} after {member}",
        kwargs={
            "uid": uid,
            "status_id": status_id,
            "cursor_score": score,
            "cursor_member": member,
            "on_lists": on_lists,
        },
    )


def clean_timelines(*, uid: int, status_id: int, cursor_score: float, cursor_member: str, on_lists: bool) -> int:
    """Job: one clean-up batch."""
    from timelines import services

    return services.clean_timelines(
        uid=uid, status_id=status_id, cursor=(cursor_score, cursor_member), on_lists=on_lists
    )


# --- refills -----------------------------------------------------------------------------------------


def enqueue_refill(
    *, run: int, cursor: tuple[float, str] | None, uid: int | None = None, list_id: int | None = None
) -> None:
    """Queue a step of refill run ``run`` of ``uid``'s home or list ``list_id``'s timeline, after ``cursor``."""
    target = f"home-{uid}" if list_id is None else f"list-{list_id}"
    score, member = cursor if cursor is not None else (None, None)
    _enqueue(
        refill_timeline,
        job_id=f"refill-{target}-run-{run}" + ("" if member is None else f"-after-{member}"),
        description=f"refill {target.replace('-', ' ')} (run {run})" + ("" if member is None else f" after {member}"),
        kwargs={"uid": uid, "list_id": list_id, "run": run, "cursor_score": score, "cursor_member": member},
    )


def refill_timeline(
    *, uid: int | None, list_id: int | None, run: int, cursor_score: float | None, cursor_member: str | None
) -> int:
    """Job: one refill step; the step queues the next one itself."""
    from timelines import services

    cursor = None if cursor_member is None or cursor_score is None else (cursor_score, cursor_member)
    return services.refill_timeline(uid=uid, list_id=list_id, run=run, cursor=cursor).added


# --- deleted lists -----------------------------------------------------------------------------------


def enqueue_forget_list(*, list_id: int, cursor: tuple[float, str]) -> None:
    """Queue the next batch removing deleted list ``list_id`` from its members' list:out:{uid}."""
    score, member = cursor
    _enqueue(
        forget_user_list,
        job_id=f"forget-list-{list_id}-after-{member}",
        description=f"forget deleted list {list_id} in its members after {member}",
        kwargs={"list_id": list_id, "cursor_score": score, "cursor_member": member},
    )


def forget_user_list(*, list_id: int, cursor_score: float, cursor_member: str) -> int:
    """Job: one batch of forgetting a deleted list."""
    from timelines import services

    return services.forget_user_list(list_id=list_id, cursor=(cursor_score, cursor_member))

"""Enqueueing deferred work on RQ: the only module that puts jobs on the queue. It imports no service.

Every job is one batch of a service and carries the cursor it resumes from: a delivery to more than
``POSTS_PER_PASS`` followers or lists (book listing 8.7 and the exercise "Updating lists"), the clean-up of a
deleted status from the same audience ("Cleaning out deleted IDs"), a refill of a home or list timeline
("Refilling timelines"), and forgetting a deleted list in its members' list:out:{uid}. Jobs name their entry
point in ``timelines.tasks`` by its dotted path, so this module never imports the services the tasks call
(and the services, which enqueue, never import the tasks).

Jobs are JSON (``SERIALIZER``): their arguments are ids, cursors (a score and a member) and short words.

Jobs are idempotent, so running one twice changes nothing; each is enqueued under the deterministic id its
``*_job_id`` function builds, with ``unique=True``, so a re-run of a batch cannot start a second chain. A job
that raises is retried (``Retry``); a job whose worker died is found by the worker's maintenance pass and
retried as well (see ``timelines.worker``).
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import django_rq
from rq import Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job
from rq.queue import Queue
from rq.serializers import JSONSerializer

from socialsite.redis_client import get_job_redis

QUEUE_NAME = "default"
MAX_RETRIES = 10
# Retry at once, then back off a little; a failing Redis gets a minute to come back before the job gives up.
RETRY_INTERVALS = [0, 1, 2, 5, 10, 10, 10, 10, 10, 10]
JOB_TIMEOUT_SECONDS = 300
# Every delivery batch's job id starts with it (``delivery_job_id``); the dashboard counts them by it.
DELIVERY_JOB_PREFIX = "syndicate-"

# Every job is written and read as JSON, never pickle (settings.RQ_QUEUES and timelines.worker say the same): a
# pickle can name any code to run when it is read, so a payload planted in Redis would run in a worker.
SERIALIZER = JSONSerializer

Cursor = tuple[float, str]


def get_queue() -> Queue:
    """The job queue on the job Redis. One ``Queue`` per client (``get_job_redis`` keeps one per process and
    URL): django-rq's ``get_queue`` reads the settings and resolves the serializer on every call, a fifth of
    an unfollow's enqueue of its refill."""
    return _queue_of(get_job_redis())


@lru_cache(maxsize=8)
def _queue_of(connection: Any) -> Queue:
    return django_rq.get_queue(QUEUE_NAME, connection=connection, serializer=SERIALIZER)


def get_job(job_id: str) -> Job | None:
    """The job stored under ``job_id``, or None when there is none (RQ's public ``Job.fetch``)."""
    try:
        return Job.fetch(job_id, connection=get_job_redis(), serializer=SERIALIZER)
    except NoSuchJobError:
        return None


def _enqueue(task: str, *, job_id: str, description: str, kwargs: dict[str, Any], unique: bool = True) -> None:
    """Queue a job. ``unique``: refuse a second job under ``job_id`` (an atomic check, one more round trip);
    without it, for ids that are new by construction, the job is written in one pipelined round trip."""
    job_queue = get_queue()
    options: dict[str, Any] = {
        "kwargs": kwargs,
        "job_id": job_id,
        "retry": Retry(max=MAX_RETRIES, interval=RETRY_INTERVALS),
        "job_timeout": JOB_TIMEOUT_SECONDS,
        "description": description,
    }
    if not unique:
        with job_queue.connection.pipeline() as pipe:
            job_queue.enqueue(f"timelines.tasks.{task}", pipeline=pipe, **options)
            pipe.execute()
        return
    # A re-run of the previous batch finds this one already queued or done and must not fork the chain.
    with contextlib.suppress(DuplicateJobError):
        job_queue.enqueue(f"timelines.tasks.{task}", unique=True, **options)


# --- delivery and its clean-up -------------------------------------------------------------------------


def delivery_job_id(*, audience: str, status_id: int, after: str) -> str:
    """The id of the delivery batch of ``status_id`` to ``audience`` after target ``after``."""
    prefix = DELIVERY_JOB_PREFIX if audience == "followers" else f"{DELIVERY_JOB_PREFIX}{audience}-"
    return f"{prefix}{status_id}-after-{after}"


def enqueue_delivery(
    *, audience: str, uid: int, status_id: int, posted: float, cursor: Cursor, repost_of: int | None = None
) -> None:
    """Queue the next delivery batch of ``status_id`` (a repost of ``repost_of``, when set) to ``audience``
    after ``cursor`` (score, member)."""
    score, member = cursor
    _enqueue(
        "deliver",
        job_id=delivery_job_id(audience=audience, status_id=status_id, after=member),
        description=f"deliver status {status_id} to {audience} after {member}",
        kwargs={
            "audience": audience,
            "uid": uid,
            "status_id": status_id,
            "posted": posted,
            "cursor_score": score,
            "cursor_member": member,
            "repost_of": repost_of,
        },
    )


def withdrawal_job_id(*, audience: str, status_id: int, after: str) -> str:
    """The id of the clean-up batch removing deleted ``status_id`` from ``audience`` after ``after``."""
    return f"clean-{audience}-{status_id}-after-{after}"


def enqueue_withdrawal(
    *, audience: str, uid: int, status_id: int, cursor: Cursor, repost_of: int | None = None
) -> None:
    """Queue the next batch cleaning deleted ``status_id`` (a repost of ``repost_of``, when set) out of
    ``audience`` after ``cursor``."""
    score, member = cursor
    _enqueue(
        "withdraw",
        job_id=withdrawal_job_id(audience=audience, status_id=status_id, after=member),
        description=f"clean deleted status {status_id} out of {audience} after {member}",
        kwargs={
            "audience": audience,
            "uid": uid,
            "status_id": status_id,
            "cursor_score": score,
            "cursor_member": member,
            "repost_of": repost_of,
        },
    )


def enqueue_tag_pass(*, kind: str, status_id: int, uid: int, tag: str, cursor: Cursor) -> None:
    """Queue the next pass of ``kind`` ("deliver" or "withdraw") of ``status_id`` by ``uid`` to the followers of
    ``tag`` after ``cursor`` (``services.tag_delivery``)."""
    score, member = cursor
    _enqueue(
        "tag_pass",
        # RQ takes ids of [A-Za-z0-9_-] only, and a tag may be any word: its digest stands for it.
        job_id=f"tag-{kind}-{status_id}-{hashlib.sha256(tag.encode()).hexdigest()[:16]}-after-{member}",
        description=f"{kind} status {status_id} to the followers of #{tag} after {member}",
        kwargs={
            "kind": kind,
            "status_id": status_id,
            "uid": uid,
            "tag": tag,
            "cursor_score": score,
            "cursor_member": member,
        },
    )


# --- what a deletion leaves behind ---------------------------------------------------------------------


def cleanup_job_id(*, kind: str, status_id: int, after: str) -> str:
    return f"cleanup-{kind}-{status_id}-after-{after}"


def enqueue_cleanup(*, kind: str, status_id: int, cursor: Cursor) -> None:
    """Queue the next pass cleaning the ``kind`` set (reposts, likes, replies) of deleted ``status_id``."""
    score, member = cursor
    _enqueue(
        "clean_up",
        job_id=cleanup_job_id(kind=kind, status_id=status_id, after=member),
        description=f"clean up the {kind} of deleted status {status_id} after {member}",
        kwargs={"kind": kind, "status_id": status_id, "cursor_score": score, "cursor_member": member},
    )


def refill_followers_job_id(*, uid: int, after: str) -> str:
    return f"refill-followers-of-{uid}-after-{after}"


def enqueue_refill_followers(*, uid: int, cursor: Cursor) -> None:
    """Queue the next pass of refilling the homes of ``uid``'s followers (after an unsuspension)."""
    score, member = cursor
    _enqueue(
        "refill_followers",
        job_id=refill_followers_job_id(uid=uid, after=member),
        description=f"refill the homes of the followers of {uid} after {member}",
        kwargs={"uid": uid, "cursor_score": score, "cursor_member": member},
    )


def erasure_job_id(*, uid: int, phase: str, pass_number: int) -> str:
    return f"erase-{uid}-{phase}-{pass_number}"


def enqueue_erasure(*, uid: int, phase: str) -> None:
    """Queue the next pass deleting account ``uid`` from Redis, in ``phase``. Each pass gets a fresh id (a
    pass may repeat a phase), and passes are idempotent."""
    _enqueue(
        "erase",
        job_id=erasure_job_id(uid=uid, phase=phase, pass_number=time.time_ns()),
        description=f"delete account {uid}: {phase}",
        kwargs={"uid": uid, "phase": phase},
    )


def enqueue_media_cleanup(*, more: bool = False) -> None:
    """Queue the hourly clean-up of uploads never posted (``services.pictures.clean_up_media``): one job id per
    hour, so the maintenance passes of every worker queue it once; ``more``: the next batch of a full one."""
    hour = time.strftime("%Y%m%d%H", time.gmtime())
    job_id = f"clean-media-{hour}-{time.time_ns()}" if more else f"clean-media-{hour}"
    _enqueue("clean_media", job_id=job_id, description="delete uploads never posted", kwargs={})


def enqueue_media_processing(*, media_id: int) -> None:
    """Queue the processing of a large upload (``services.media_jobs.process``), once per upload."""
    _enqueue(
        "process_media",
        job_id=f"process-media-{media_id}",
        description=f"process upload {media_id}",
        kwargs={"media_id": media_id},
    )


# --- refills -------------------------------------------------------------------------------------------


def refill_job_id(*, run: int, after: str | None, uid: int | None = None, list_id: int | None = None) -> str:
    target = f"home-{uid}" if list_id is None else f"list-{list_id}"
    return f"refill-{target}-run-{run}" + ("" if after is None else f"-after-{after}")


def enqueue_refill(*, run: int, cursor: Cursor | None, uid: int | None = None, list_id: int | None = None) -> None:
    """Queue a step of refill run ``run`` of ``uid``'s home or list ``list_id``'s timeline, after ``cursor``.
    A run's first step (no cursor) has an id no other job had (run numbers only grow), so it is written in
    one round trip without the uniqueness check."""
    target = f"home {uid}" if list_id is None else f"list {list_id}"
    score, member = cursor if cursor is not None else (None, None)
    _enqueue(
        "refill_timeline",
        job_id=refill_job_id(run=run, after=member, uid=uid, list_id=list_id),
        description=f"refill {target} (run {run})" + ("" if member is None else f" after {member}"),
        kwargs={"uid": uid, "list_id": list_id, "run": run, "cursor_score": score, "cursor_member": member},
        unique=cursor is not None,
    )


# --- deleted lists -------------------------------------------------------------------------------------


def forget_list_job_id(*, list_id: int, after: str) -> str:
    return f"forget-list-{list_id}-after-{after}"


def enqueue_forget_list(*, list_id: int, cursor: Cursor) -> None:
    """Queue the next batch removing deleted list ``list_id`` from its members' list:out:{uid}."""
    score, member = cursor
    _enqueue(
        "forget_user_list",
        job_id=forget_list_job_id(list_id=list_id, after=member),
        description=f"forget deleted list {list_id} in its members after {member}",
        kwargs={"list_id": list_id, "cursor_score": score, "cursor_member": member},
    )


# --- the idle sweep ------------------------------------------------------------------------------------

IDLE_SWEEP_PREFIX = "idle-sweep-"


def enqueue_idle_sweep(*, shard: int, started: float) -> None:
    """Queue the next batch of the idle sweep that started at ``started``, in seen-shard ``shard``. Each batch
    gets a fresh id (a shard may take several), and batches are idempotent."""
    _enqueue(
        "sweep_idle",
        job_id=f"{IDLE_SWEEP_PREFIX}{int(started)}-shard-{shard}-{time.time_ns()}",
        description=f"drop idle timelines, shard {shard}",
        kwargs={"shard": shard, "started": started},
        unique=False,
    )


def schedule_idle_sweep(*, at: float) -> bool:
    """Schedule a sweep to start at ``at`` (epoch seconds; run by a worker started ``--with-scheduler``, as
    ``manage.py serve`` starts them). Its id names the minute, so two processes scheduling the same sweep make
    one job. Returns whether it was scheduled now (False: it already was)."""
    job_queue = get_queue()
    try:
        job_queue.enqueue_at(
            datetime.fromtimestamp(at, tz=UTC),
            "timelines.tasks.sweep_idle",
            kwargs={"shard": 0, "started": at},
            job_id=f"{IDLE_SWEEP_PREFIX}at-{int(at) // 60}",
            unique=True,
            retry=Retry(max=MAX_RETRIES, interval=RETRY_INTERVALS),
            job_timeout=JOB_TIMEOUT_SECONDS,
            description="drop idle timelines (the periodic sweep)",
        )
    except DuplicateJobError:
        return False
    return True


# --- the admin dashboard's gauges ------------------------------------------------------------------------

BACKLOG_SCAN = 10_000


@dataclass(frozen=True, slots=True)
class QueueGauges:
    queued: int  # jobs waiting on the queue
    failed: int  # jobs in the failed registry (retries spent)
    delivery_backlog: int  # queued fan-out batches (deliveries of posts past the first POSTS_PER_PASS)
    backlog_capped: bool  # True when only the first BACKLOG_SCAN queued jobs were looked at


def get_gauges() -> QueueGauges:
    """How much work waits: the queue's depth, its failed jobs, and how many queued jobs are home-timeline
    deliveries (told apart by their id, ``delivery_job_id``), reading at most ``BACKLOG_SCAN`` job ids."""
    queue = get_queue()
    queued = queue.count
    ids = queue.get_job_ids(0, BACKLOG_SCAN)
    return QueueGauges(
        queued=queued,
        failed=queue.failed_job_registry.count,
        delivery_backlog=sum(job_id.startswith(DELIVERY_JOB_PREFIX) for job_id in ids),
        backlog_capped=queued > BACKLOG_SCAN,
    )

"""Job entry points run by RQ workers (``python manage.py rqworker``): each calls one service batch.

``timelines.queue`` enqueues these by dotted path; each job carries its cursor as two plain values (score and
member) so its arguments stay JSON-friendly and readable in the RQ dashboard. See ``timelines.queue`` for
retries and uniqueness.
"""

from __future__ import annotations

from timelines import limits
from timelines.services import (
    cleanup,
    delivery,
    erasure,
    idle,
    lists,
    media_jobs,
    moderation,
    pictures,
    refill,
    tag_delivery,
    withdrawal,
)


def deliver(
    *,
    audience: str,
    uid: int,
    status_id: int,
    posted: float,
    cursor_score: float,
    cursor_member: str,
    repost_of: int | None = None,
) -> int:
    """One delivery batch of ``DELIVERY_JOB_SIZE`` targets. ``delivery.deliver`` notices a status deleted
    meanwhile, takes it back out of the batch's timelines and ends the chain."""
    return delivery.deliver(
        count=limits.DELIVERY_JOB_SIZE,
        audience=audience,
        uid=uid,
        status_id=status_id,
        posted=posted,
        cursor=(cursor_score, cursor_member),
        repost_of=repost_of,
    )


def withdraw(
    *,
    audience: str,
    uid: int,
    status_id: int,
    cursor_score: float,
    cursor_member: str,
    repost_of: int | None = None,
) -> int:
    """One clean-up batch of a deleted status or repost."""
    return withdrawal.withdraw(
        audience=audience, uid=uid, status_id=status_id, cursor=(cursor_score, cursor_member), repost_of=repost_of
    )


def tag_pass(*, kind: str, status_id: int, uid: int, tag: str, cursor_score: float, cursor_member: str) -> int:
    """One pass of a post to (or out of) the homes of a tag's followers, ``DELIVERY_JOB_SIZE`` of them."""
    return tag_delivery.tag_pass(kind=kind, status_id=status_id, uid=uid, tag=tag, cursor=(cursor_score, cursor_member))


def refill_timeline(
    *, uid: int | None, list_id: int | None, run: int, cursor_score: float | None, cursor_member: str | None
) -> int:
    """One refill step; the step queues the next one itself."""
    cursor = None if cursor_member is None or cursor_score is None else (cursor_score, cursor_member)
    return refill.refill_timeline(uid=uid, list_id=list_id, run=run, cursor=cursor).added


def forget_user_list(*, list_id: int, cursor_score: float, cursor_member: str) -> int:
    """One batch of forgetting a deleted list."""
    return lists.forget_user_list(list_id=list_id, cursor=(cursor_score, cursor_member))


def clean_up(*, kind: str, status_id: int, cursor_score: float, cursor_member: str) -> int:
    """One pass cleaning up after a deleted status (its reposts, likes or replies)."""
    return cleanup.clean(kind=kind, status_id=status_id, cursor=(cursor_score, cursor_member))


def refill_followers(*, uid: int, cursor_score: float, cursor_member: str) -> int:
    """One pass queueing refills of a (re-admitted) user's followers' homes."""
    return moderation.refill_followers(uid=uid, cursor=(cursor_score, cursor_member))


def erase(*, uid: int, phase: str) -> str | None:
    """One pass of deleting an account from Redis; the pass queues the next one itself."""
    return erasure.erase(uid=uid, phase=phase)


def sweep_idle(*, shard: int, started: float) -> int:
    """One batch of the periodic idle sweep; it queues the next batch, or schedules the next sweep, itself."""
    return idle.sweep_step(shard=shard, started=started).dropped


def clean_media() -> int:
    """Delete the uploads nobody posted within a day (a batch; the batch queues the next when there is more)."""
    return pictures.clean_up_media()


def process_media(*, media_id: int) -> str | None:
    """Process a large upload, then publish the post box's post that waits for it, if any."""
    return media_jobs.process(media_id=media_id)

"""Enqueueing federation's jobs on the site's RQ queue (``timelines.queue``): the only federation module that puts
jobs on it. Entry points are in ``federation.tasks``, named by dotted path.

- ``enqueue_inbound``: an accepted incoming activity, processed off the request (the inbox answers 202 at once).
- ``enqueue_fanout``: a local status (or its deletion) going to the remote audience: one job reads the remote
  followers and queues one delivery per inbox.
- ``enqueue_backfill``: the latest public posts of a remote account just found, from its outbox.
- ``enqueue_replies``: the replies of a remote post whose thread was opened, from its ``replies`` collection.
- ``enqueue_ancestors``: the posts above a remote post just stored that answers one missing here.
- ``enqueue_actor_update``: the Update of a local account's actor after its profile changed.
- ``enqueue_lookup``: an account of another server a post mentions, unknown here: WebFinger and its actor.
- ``enqueue_actor_refresh``: a remote actor fetched for its key alone (in a request), fetched again with its counts.
- ``enqueue_remote_images``: the images of a remote post just stored, fetched and cached here.
- ``enqueue_remote_pictures``: a remote account's avatar and header, when its actor names new ones. Both are retried
  with RQ's ``Retry`` after ``media.limits.remote_retry_seconds()`` (1 min, 10 min, 1 h) when a fetch failed for a
  reason that may pass (the job raises ``remote_media.TryAgain``).
- ``enqueue_media_policy``: a domain's block changed: its cached pictures deleted when its media are rejected now,
  fetched again when they are not any more.
- ``enqueue_severance``: a domain block became ``suspend``: the follows between people here and its accounts are
  removed, and each person who lost some is told (``federation.services.severance``).
- ``enqueue_delivery``: one signed POST of an activity to one inbox, under an id unique per (activity, inbox),
  so a repeated fan-out never sends twice; retried with exponential backoff over about four and a half days
  (``DELIVERY_RETRY_INTERVALS``; Mastodon retries 16 times over about three days). The retries need a worker with
  the scheduler (``rqworker --with-scheduler``, as ``serve`` runs them).
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from typing import Any

from rq import Retry
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job

from media import limits as media_limits
from timelines.queue import JOB_TIMEOUT_SECONDS, get_queue

INBOUND_RETRIES = [5, 30, 120]
# 15 retries after the first try: 30 s doubling to 17 hours, then three daily ones; about 4.4 days in all.
DELIVERY_RETRY_INTERVALS = [30 * 2**step for step in range(12)] + [86_400, 86_400, 86_400]
DELIVERY_PREFIX = "ap-deliver-"


def _digest(*parts: str) -> str:
    return hashlib.sha1("\n".join(parts).encode(), usedforsecurity=False).hexdigest()


def _enqueue(task: str, *, job_id: str, description: str, kwargs: dict[str, Any], retry: list[int]) -> None:
    with contextlib.suppress(DuplicateJobError):
        get_queue().enqueue(
            f"federation.tasks.{task}",
            kwargs=kwargs,
            job_id=job_id,
            unique=True,
            retry=Retry(max=len(retry), interval=retry) if retry else None,
            job_timeout=JOB_TIMEOUT_SECONDS,
            description=description,
        )


def enqueue_inbound(*, activity: dict[str, Any], actor: str) -> None:
    """Process ``activity``, whose signature ``actor`` made, in a job (one per activity id)."""
    identifier = str(activity.get("id") or "")
    _enqueue(
        "process_inbound",
        job_id=f"ap-inbound-{_digest(identifier, actor)}",
        description=f"process {activity.get('type')} {identifier} from {actor}",
        kwargs={"activity": activity, "actor": actor},
        retry=INBOUND_RETRIES,
    )


def enqueue_fanout(*, status_id: int, uid: int, deleted: dict[str, str] | None = None, version: int = 0) -> None:
    """Send status ``status_id`` of local ``uid`` (or, with ``deleted``, its deletion, whose stored fields these
    are; with ``version``, its edit of that number) to the inboxes of its remote audience."""
    verb = "delete" if deleted is not None else ("update" if version else "create")
    _enqueue(
        "fan_out",
        job_id=f"ap-fanout-{verb}-{status_id}" + (f"-{version}" if version else ""),
        description=f"federate the {verb} of status {status_id}",
        kwargs={"status_id": status_id, "uid": uid, "deleted": deleted, "version": version},
        retry=INBOUND_RETRIES,
    )


def enqueue_delivery(*, inbox: str, activity: dict[str, Any], signer: int) -> None:
    """POST ``activity``, signed by local account ``signer``, to ``inbox``."""
    _enqueue(
        "deliver",
        job_id=f"{DELIVERY_PREFIX}{_digest(str(activity.get('id')), inbox)}",
        description=f"deliver {activity.get('type')} {activity.get('id')} to {inbox}",
        kwargs={"inbox": inbox, "activity": activity, "signer": signer},
        retry=DELIVERY_RETRY_INTERVALS,
    )


def enqueue_backfill(*, uid: int) -> None:
    """Fetch the latest public posts of remote account ``uid`` from its outbox (one job per account)."""
    _enqueue(
        "backfill",
        job_id=f"ap-backfill-{uid}",
        description=f"fetch the latest posts of remote account {uid}",
        kwargs={"uid": uid},
        retry=INBOUND_RETRIES,
    )


def enqueue_lookup(*, acct: str) -> None:
    """Look up ``login@domain`` on its server and record it (one job per account at a time)."""
    _enqueue(
        "look_up",
        job_id=f"ap-lookup-{_digest(acct.lower())}",
        description=f"look up {acct[:300]}",
        kwargs={"acct": acct},
        retry=INBOUND_RETRIES[:1],
    )


def enqueue_actor_update(*, uid: int) -> None:
    """Send the Update of local ``uid``'s actor, as it is when the job runs (a burst of edits sends one or
    two: the job id is per account while one waits)."""
    _enqueue(
        "actor_update",
        job_id=f"ap-actor-update-{uid}",
        description=f"federate the profile of account {uid}",
        kwargs={"uid": uid},
        retry=INBOUND_RETRIES,
    )


def enqueue_replies(*, status_id: int) -> None:
    """Fetch the replies of remote post ``status_id`` missing here (one job per post at a time; not retried:
    the next opening of its thread after the cooldown asks again)."""
    _enqueue(
        "fetch_replies",
        job_id=f"ap-replies-{status_id}",
        description=f"fetch the replies of status {status_id}",
        kwargs={"status_id": status_id},
        retry=[],
    )


def enqueue_ancestors(*, status_id: int, parent_uri: str) -> None:
    """Fetch the post ``parent_uri`` that remote post ``status_id`` answers, and those above it (one job per
    post; not retried: the cooldown is the caller's)."""
    _enqueue(
        "fetch_ancestors",
        job_id=f"ap-ancestors-{status_id}",
        description=f"fetch the posts above status {status_id}",
        kwargs={"status_id": status_id, "parent_uri": parent_uri},
        retry=[],
    )


PENDING = frozenset({"queued", "started", "scheduled", "deferred"})


def replies_pending(status_id: int) -> bool:
    """Whether the fetch of remote post ``status_id``'s replies is queued or running (its job, by its id)."""
    try:
        job = Job.fetch(f"ap-replies-{status_id}", connection=get_queue().connection)
    except NoSuchJobError:
        return False
    status = job.get_status()
    return getattr(status, "value", status) in PENDING


def enqueue_remote_images(*, status_id: int, again: bool = False) -> None:
    """Fetch and cache the images of remote post ``status_id`` (one job per post). A fetch that failed for a
    reason that may pass is tried again by RQ after each of ``media.limits.remote_retry_seconds()``; the last try
    marks it failed. ``again``: its images are waiting once more (a reject-media block was lifted),
    under a new job id, since the first job's may still be kept."""
    suffix = f"-{time.time_ns()}" if again else ""
    _enqueue(
        "cache_remote_images",
        job_id=f"ap-images-{status_id}{suffix}",
        description=f"cache the images of status {status_id}",
        kwargs={"status_id": status_id},
        retry=media_limits.remote_retry_seconds(),
    )


def enqueue_remote_pictures(*, uid: int) -> None:
    """Fetch and cache the avatar and header of remote account ``uid`` that changed (retried as the images of a
    post are)."""
    _enqueue(
        "cache_remote_pictures",
        # Never deduplicated by a kept job of an earlier change (the job is idempotent).
        job_id=f"ap-pictures-{uid}-{time.time_ns()}",
        description=f"cache the pictures of remote account {uid}",
        kwargs={"uid": uid},
        retry=media_limits.remote_retry_seconds(),
    )


def enqueue_media_policy(*, domain: str) -> None:
    """Apply the media side of ``domain``'s block (made, changed or lifted) to what is cached of its accounts."""
    _enqueue(
        "apply_media_policy",
        job_id=f"ap-media-policy-{_digest(domain)}-{time.time_ns()}",
        description=f"apply the media policy of {domain[:300]}",
        kwargs={"domain": domain},
        retry=INBOUND_RETRIES,
    )


def enqueue_severance(*, event_id: int) -> None:
    """Sever the relationships recorded by severance event ``event_id`` (one job per event)."""
    _enqueue(
        "sever_relationships",
        job_id=f"ap-severance-{event_id}",
        description=f"sever the relationships of severance event {event_id}",
        kwargs={"event_id": event_id},
        retry=INBOUND_RETRIES,
    )


def enqueue_actor_refresh(*, uri: str) -> None:
    """Fetch remote actor ``uri`` again, with its counts (it was fetched for its key alone)."""
    _enqueue(
        "refresh_actor",
        job_id=f"ap-actor-refresh-{_digest(uri)}",
        description=f"refresh the actor {uri[:300]}",
        kwargs={"uri": uri},
        retry=[],
    )

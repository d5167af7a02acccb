"""Idle timelines (issue 23): a home (and its owner's list timelines) is dropped when its owner has not been seen
for ``settings.IDLE_DAYS``, and rebuilt from the people they follow when they come back, before their first
page is shown.

- ``note_seen`` records a visit (a page view or an API call: ``accounts.middleware``, ``api.http``) at most once
  per ``IDLE_SEEN_WRITE_EVERY_SECONDS`` per user and process, so a visit usually costs no Redis command at all.
  The write answers whether the home was dropped; if so, ``wake_up`` rebuilds it in the same request.
- ``sweep_idle`` is one batch of the periodic sweep (an RQ job, ``timelines.tasks.sweep_idle``, rescheduled
  every ``IDLE_SWEEP_EVERY_SECONDS``): it drops the homes of up to ``IDLE_SWEEP_BATCH`` people last seen before
  the cutoff, and their lists' timelines. The drop marks ``idle`` in the owner's hash and deletes the timeline in
  one single-slot script that re-checks the visit time, so a person coming back during the sweep keeps their home.
- While a home is dropped, delivery, reposts, copies and refills write nothing into it (``store.fanout`` and the
  scripts check the mark): an idle person costs their user hash and graph, not a 1,000-entry timeline per post.

The rebuild reuses the refill (``services.refill``): newest first from every followed profile, through the
per-recipient policy, trimmed to ``HOME_TIMELINE_SIZE``.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass

from django.conf import settings
from redis.exceptions import RedisError

from timelines import keys, limits, queue, store
from timelines.services import refill, visits

DAY_SECONDS = 86_400


def idle_cutoff(now: float | None = None) -> float:
    """People last seen before this time (epoch seconds) are idle."""
    return (time.time() if now is None else now) - settings.IDLE_DAYS * DAY_SECONDS


def note_seen(*, uid: int, now: float | None = None) -> bool:
    """Record that ``uid`` is here (a page view, an API call), and when their home was idle-dropped rebuild it
    before returning. Returns True when it rebuilt one.

    Writes at most once per ``IDLE_SEEN_WRITE_EVERY_SECONDS`` per user and process (two commands); otherwise
    costs a dictionary lookup. A home cannot be dropped within ``IDLE_DAYS`` of a written visit, far longer than
    a process waits before writing the next one, so a skipped write never hides a dropped home."""
    now = time.time() if now is None else now
    if not visits.due(uid, now):
        return False
    dropped = store.idle.note_seen(uid, now)
    visits.remember(uid, now)
    return dropped == 1 and wake_up(uid=uid)


def wake_up(*, uid: int) -> bool:
    """Rebuild ``uid``'s idle-dropped home now, and queue refills of their lists' timelines. Returns False (and
    does nothing) when the home was not dropped, or another request is already rebuilding it.

    The mark is cleared first, so every post delivered from then on reaches the home, and every post delivered
    before it is already in its author's profile, which the rebuild reads afterwards: none is missed, and the
    adds are idempotent, so none is there twice. O(followees / REFILL_USERS_STEP) round trips."""
    if not store.idle.wake(keys.user(uid)):
        return False
    store.idle.count_dropped(-1)
    try:
        fill_timeline(uid=uid)
    except RedisError:
        # The mark is gone, so no later visit would rebuild it: leave the rest to a refill job, if one can be
        # queued, and let the request fail as any other would while Redis does.
        with contextlib.suppress(RedisError):
            refill.request_refill(uid=uid)
        raise
    for list_id in store.idle.owned_lists([uid])[0]:
        if store.idle.wake(keys.user_list(list_id)):
            refill.request_refill(list_id=list_id)
    return True


def fill_timeline(*, uid: int | None = None, list_id: int | None = None) -> int:
    """Run every refill step of a home or list timeline in this process (``refill.refill_timeline``, even on a
    full timeline); returns how many statuses were added."""
    added = 0
    cursor: refill.Cursor | None = None
    while True:
        step = refill.refill_timeline(uid=uid, list_id=list_id, cursor=cursor, full=True)
        added += step.added
        if step.cursor is None:
            return added
        cursor = step.cursor


@dataclass(frozen=True, slots=True)
class SweepStep:
    """One batch of the sweep: how many people it looked at, whose homes it dropped, and whether the shard may
    hold more."""

    looked_at: int
    dropped: int
    more: bool


def sweep_idle(*, shard: int, now: float | None = None) -> SweepStep:
    """Drop the homes (and list timelines) of up to ``IDLE_SWEEP_BATCH`` people of seen-shard ``shard`` not seen
    since ``idle_cutoff(now)``. Idempotent; people seen meanwhile keep their home. Five round trips."""
    now = time.time() if now is None else now
    cutoff = idle_cutoff(now)
    uids = store.idle.candidates(shard, cutoff, limits.IDLE_SWEEP_BATCH)
    outcomes = store.idle.drop_homes(uids, cutoff, now)
    kept = {uid: outcome for uid, outcome in zip(uids, outcomes, strict=True) if isinstance(outcome, float)}
    dropped = [uid for uid, outcome in zip(uids, outcomes, strict=True) if outcome == 1]
    lists = [list_id for owned in store.idle.owned_lists(dropped) for list_id in owned]
    if lists:
        store.idle.drop_lists(lists, now)
    store.idle.count_dropped(len(dropped))
    store.idle.forget_seen(shard, [uid for uid in uids if uid not in kept], cutoff)
    store.idle.reseen(shard, kept)
    return SweepStep(len(uids), len(dropped), len(uids) >= limits.IDLE_SWEEP_BATCH)


def sweep_step(*, shard: int, started: float) -> SweepStep:
    """The job of the periodic sweep: one batch, then queue the next (this shard again while it has more, then
    the next shard), and after the last shard schedule the next sweep ``IDLE_SWEEP_EVERY_SECONDS`` after this
    one started."""
    step = sweep_idle(shard=shard)
    if step.more:
        queue.enqueue_idle_sweep(shard=shard, started=started)
    elif shard + 1 < limits.IDLE_SEEN_SHARDS:
        queue.enqueue_idle_sweep(shard=shard + 1, started=started)
    else:
        queue.schedule_idle_sweep(at=started + limits.IDLE_SWEEP_EVERY_SECONDS)
    return step


def ensure_sweep_scheduled(*, now: float | None = None) -> bool:
    """Schedule the periodic sweep at the next full ``IDLE_SWEEP_EVERY_SECONDS`` unless it already is (``manage.py
    serve`` calls this as it starts its workers; every sweep schedules the next). True when scheduled now."""
    now = time.time() if now is None else now
    every = limits.IDLE_SWEEP_EVERY_SECONDS
    return queue.schedule_idle_sweep(at=(now // every + 1) * every)


def count_idle(*, now: float | None = None) -> int:
    """How many people the sweep would look at now (last seen before the cutoff, home not dropped yet)."""
    return store.idle.count_candidates(idle_cutoff(now))


ENROLL_CHUNK = 1_000


def enroll_all() -> int:
    """Give every account without a last-visit entry one, at its last visit or sign-up (accounts made before
    visits were recorded would otherwise never be swept). Idempotent; O(users) in chunks. Returns how many."""
    last = store.users.last_id(keys.USER_ID_COUNTER)
    enrolled = 0
    for start in range(1, last + 1, ENROLL_CHUNK):
        found = store.idle.unenrolled(list(range(start, min(last, start + ENROLL_CHUNK - 1) + 1)))
        store.idle.enroll(found)
        enrolled += len(found)
    return enrolled


def sweep_all(*, now: float | None = None) -> int:
    """Run the whole sweep in this process (``manage.py sweep_idle_timelines --apply``); how many homes it
    dropped."""
    dropped = 0
    for shard in range(limits.IDLE_SEEN_SHARDS):
        while True:
            step = sweep_idle(shard=shard, now=now)
            dropped += step.dropped
            if not step.more:
                break
    return dropped

"""Refilling timelines after a removal, and rebuilding them (the book's exercise "Refilling timelines").

A home timeline shows its owner and the people they follow; a list's timeline shows its members. A refill or a
rebuild reads their profiles, newest first, through the per-recipient policy for the timeline's reader
(``services.filled_timelines``), and publishes a ``reset`` event for the timeline's open live pages. Copying a newly
followed author and removing an unfollowed one are ``services.author_copies``.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

from timelines import exceptions, limits, queue, store
from timelines.services.filled_timelines import Timeline, allowed_entries, reset, timeline_of
from timelines.services.users import require_user

Cursor = tuple[float, str]


@dataclass(frozen=True, slots=True)
class RefillStep:
    """What one refill step did: how many users' profiles it read, how many statuses were new to the timeline,
    and the cursor the next step starts from (None when the refill is over)."""

    sources: int
    added: int
    cursor: Cursor | None


def request_refill(*, uid: int | None = None, list_id: int | None = None) -> int:
    """Queue a refill of ``uid``'s home timeline or of list ``list_id``'s timeline and return its run number.

    Returns at once; the refill runs as a chain of ``refill_timeline`` jobs. Starting a run supersedes any
    older run of the same timeline still going (it stops at its next step), since the new run reads every
    source again anyway.
    """
    timeline = timeline_of(uid, list_id)
    run = store.refill.start_refill_run(timeline.key)
    queue.enqueue_refill(**timeline.job_kwargs, run=run, cursor=None)
    return run


def refill_timeline(
    *,
    uid: int | None = None,
    list_id: int | None = None,
    run: int | None = None,
    cursor: Cursor | None = None,
    full: bool = False,
) -> RefillStep:
    """One step of refilling a home (``uid``) or list (``list_id``) timeline from the profiles of the people it
    shows: the next ``REFILL_USERS_STEP`` followees or members after ``cursor`` (a home's owner counts too).

    The book's exercise solution ``refill_timeline``, batched: a step reads from each profile only statuses
    newer than the timeline's ``HOME_TIMELINE_SIZE``-th entry (once it is full nothing older can make the cut),
    at most ``HOME_TIMELINE_SIZE`` of them, keeps those the policy lets the timeline's reader receive, keeps
    the newest ``HOME_TIMELINE_SIZE`` of the lot, adds them and trims, so the result is the newest statuses
    of all sources whatever their number. Statuses of a source unfollowed (or removed from the list) or
    deleted while the step ran are taken back out. Idempotent.

    With ``run`` (a job of ``request_refill``), a step stops when a newer run exists and queues the next step
    itself; without it the caller drives the steps (``rebuild_timeline``). A refill that starts on a full
    timeline stops at once unless ``full`` is set. O(REFILL_USERS_STEP) profile reads in one round trip.
    """
    timeline = timeline_of(uid, list_id)
    if run is not None and store.refill.current_refill_run(timeline.key) != run:
        return RefillStep(0, 0, None)
    size = limits.HOME_TIMELINE_SIZE
    floor = store.timelines.lowest_kept_score(timeline.key, size)
    if cursor is None and floor is not None and not full:
        return RefillStep(0, 0, None)
    batch = store.graph.members_after(timeline.sources, cursor, limits.REFILL_USERS_STEP)
    sources = [int(member) for member, _ in batch]
    if cursor is None and timeline.own_uid is not None:
        sources.append(timeline.own_uid)
    read = store.timelines.profile_entries_newer_than(sources, floor, size)
    per_source = allowed_entries(timeline, timeline.reader(), list(zip(sources, read, strict=True)))
    newest = heapq.nlargest(size, (entry for entries in per_source for entry in entries), key=lambda entry: entry[1])
    added = (
        store.timelines.add_to_guarded_timeline(timeline.owner_key, timeline.key, newest, size=size) if newest else 0
    )
    if added < 0:
        return RefillStep(len(sources), 0, None)  # the list was deleted: nothing left to fill
    if newest:
        _withdraw_stale(timeline, sources, per_source, {status_id for status_id, _ in newest})
    if added:
        reset(timeline)
    next_cursor = (batch[-1][1], batch[-1][0]) if len(batch) >= limits.REFILL_USERS_STEP else None
    if run is not None and next_cursor is not None:
        queue.enqueue_refill(**timeline.job_kwargs, run=run, cursor=next_cursor)
    return RefillStep(len(sources), added, next_cursor)


def _withdraw_stale(
    timeline: Timeline, sources: list[int], per_source: list[list[tuple[int, float]]], written: set[int]
) -> None:
    """Take back what a refill step just wrote from sources no longer followed (or members no longer listed)
    and statuses deleted meanwhile. Checked after the write, so either this sees the unfollow or deletion, or
    that change's own clean-up ran after the write and removed the entries."""
    checked = [source for source in sources if source != timeline.own_uid]
    left = {
        source
        for source, kept in zip(checked, store.graph.memberships(timeline.sources, checked), strict=True)
        if not kept
    }
    stale = [
        status_id
        for source, entries in zip(sources, per_source, strict=True)
        if source in left
        for status_id, _ in entries
        if status_id in written
    ]
    ids = sorted(written)
    stale.extend(
        status_id for status_id, exists in zip(ids, store.statuses.statuses_exist(ids), strict=True) if not exists
    )
    store.timelines.remove_from_timeline(timeline.key, stale)


@dataclass(frozen=True, slots=True)
class RebuildResult:
    """What ``rebuild_timeline`` changed: entries dropped (deleted statuses, authors no longer followed or
    listed), and the timeline's size before and after."""

    removed: int
    before: int
    after: int


def rebuild_timeline(
    *, uid: int | None = None, list_id: int | None = None, on_step: Callable[[int], object] | None = None
) -> RebuildResult:
    """Rebuild a home (``uid``) or list (``list_id``) timeline from the profiles of the people it shows.

    First drops entries that do not belong (deleted statuses, authors no longer followed or in the list, and
    what the policy no longer lets the reader receive), then runs every refill step in this process, even on a
    full timeline, so what is missing comes back. Safe while the site runs: every step is one of the
    idempotent steps the refill jobs use, and new posts keep arriving by fan-out. ``on_step`` is called with
    the number of profiles each step read (for a progress bar). Raises ``UnknownUser`` or ``UnknownList``.
    """
    timeline = timeline_of(uid, list_id)
    if list_id is not None and not store.lists.get_list(list_id):
        raise exceptions.UnknownList()
    if uid is not None:
        require_user(uid)
    ids = store.timelines.timeline_ids(timeline.key)
    authors = store.statuses.status_authors(ids)
    others = sorted({author for author in authors if author is not None and author != timeline.own_uid})
    shown = {
        author for author, kept in zip(others, store.graph.memberships(timeline.sources, others), strict=True) if kept
    }
    if timeline.own_uid is not None:
        shown.add(timeline.own_uid)
    entries = [(author, [(status_id, 0.0)]) for status_id, author in zip(ids, authors, strict=True) if author in shown]
    allowed = {status_id for kept in allowed_entries(timeline, timeline.reader(), entries) for status_id, _ in kept}
    dropped = [status_id for status_id in ids if status_id not in allowed]
    store.timelines.remove_from_timeline(timeline.key, dropped)
    if dropped:
        reset(timeline)
    cursor: Cursor | None = None
    while True:
        step = refill_timeline(uid=uid, list_id=list_id, cursor=cursor, full=True)
        if on_step is not None:
            on_step(step.sources)
        if step.cursor is None:
            break
        cursor = step.cursor
    return RebuildResult(removed=len(dropped), before=len(ids), after=store.timelines.timeline_size(timeline.key))

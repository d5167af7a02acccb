"""A per-process cache of status records, so a page reads from Redis only what can change.

A status never changes after it is written except for its counters (replies, reposts, likes), a mark when the
post it answers is deleted, its edits and its own deletion (a new display name does not rewrite old posts). A
page read (``store.pages``) therefore brings back, for every status, only whether it exists, those mutable
fields, its number of edits (its version: ``services.edits`` counts them) and its ``posted`` time; the rest
comes from here, and only statuses this process has not seen, or has seen at another version, are read in
full. A cached record is used only when its ``posted`` matches the one just read, so a Redis that was flushed
or restored, which hands out the same ids again, never shows an old status under a new one's id. Nothing needs
to be invalidated: a deletion shows as a missing status and a count or an edit as a new number, all read every
time; a new mark reads the status again.

Bounded: at most ``settings.TIMELINES_STATUS_CACHE_SIZE`` records (the oldest inserted go first). Records are
immutable, so threads may share them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.conf import settings

from timelines import store
from timelines.records import Status

_records: dict[int, Status] = {}


def _keep(status: Status) -> None:
    limit = settings.TIMELINES_STATUS_CACHE_SIZE
    if limit <= 0:
        return
    while len(_records) >= limit:
        try:
            del _records[next(iter(_records))]
        except (StopIteration, KeyError, RuntimeError):  # emptied or changed by another thread meanwhile
            break
    _records[status.id] = status


def get_statuses(
    wanted: Sequence[tuple[int, float | None, tuple[int, int, int], bool, int]],
) -> dict[int, Status]:
    """The records of ``wanted`` (id, posted as read in seconds, (replies, reposts, likes) as read, whether the post it
    answers is gone, its edits as read) that exist, with those counts; reads the hashes of the ones not cached
    (or cached at another version) in one round trip."""
    found: dict[int, Status] = {}
    missing: list[int] = []
    get = _records.get
    for status_id, posted, counts, reply_gone, edits in wanted:
        if posted is None:
            _records.pop(status_id, None)
            continue
        cached = get(status_id)
        if (
            cached is None
            or cached.posted != posted
            or cached.edits != edits
            or bool(cached.extra.get("in_reply_to_deleted")) != reply_gone
        ):
            missing.append(status_id)
            continue
        # _with_counts, inline: every status of every page comes through here, and its counts rarely moved.
        found[status_id] = (
            cached
            if (cached.reply_count, cached.repost_count, cached.like_count) == counts
            else _with_counts(cached, counts)
        )
    if missing:
        for fields in store.statuses.get_statuses(missing):
            if fields:
                status = Status.from_hash(fields)
                _keep(status)
                found[status.id] = status
    return found


def _with_counts(status: Status, counts: tuple[int, int, int]) -> Status:
    if (status.reply_count, status.repost_count, status.like_count) == counts:
        return status
    updated = status.with_counts(*counts)
    _keep(updated)
    return updated


def forget(status_ids: Iterable[int] | None = None) -> None:
    """Drop some records, or all of them (tests that reset Redis, a process that restores a backup)."""
    if status_ids is None:
        _records.clear()
        return
    for status_id in status_ids:
        _records.pop(status_id, None)

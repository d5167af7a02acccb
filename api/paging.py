"""Mastodon's cursors on a newest-first timeline: ``max_id`` (older than it), ``since_id`` (the newest entries
above it) and ``min_id`` (the entries just above it: what ``fetch_previous`` and a ``rel="prev"`` link ask for, so
that paging up from a page repeats and skips nothing however many entries came in since).

The selectors read newest first only, so ``min_id`` is served by reading down from the top (or from ``max_id``)
in pages of ``MAX_PAGE_SIZE`` until ``min_id`` is reached, keeping the lowest ``limit``: one read when fewer than
``MAX_PAGE_SIZE`` entries are newer (``fetch_previous`` right after a page), at most ``MIN_ID_READS``. A home holds
``HOME_TIMELINE_SIZE`` (1,000) entries, five such reads."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest

from api.http import id_param
from timelines import limits
from timelines.records import TimelineEntry

# read(max_id, since_id, count): up to ``count`` entries newest first, with max_id > entry_id > since_id.
Read = Callable[[int | None, int | None, int], list[TimelineEntry]]

MIN_ID_READS = 6


def read_page(request: HttpRequest, read: Read, limit: int) -> list[TimelineEntry]:
    """The page the request's ``max_id``, ``since_id``, ``min_id`` and ``limit`` name, newest first."""
    max_id = id_param(request, "max_id") or None
    since_id = id_param(request, "since_id") or None
    min_id = id_param(request, "min_id") or None
    if min_id is None:
        return read(max_id, since_id, limit)
    lowest: list[TimelineEntry] = []  # newest first: the lowest ``limit`` entries above min_id read so far
    upper = max_id
    for _ in range(MIN_ID_READS):
        entries = read(upper, min_id, limits.MAX_PAGE_SIZE)
        lowest = (lowest + entries)[-limit:]
        if len(entries) < limits.MAX_PAGE_SIZE:
            break
        upper = entries[-1].entry_id
    return lowest


def above(entries: list[TimelineEntry], since_id: int | None) -> list[TimelineEntry]:
    """``entries`` (newest first) above ``since_id``: for the timelines whose selectors take no lower bound."""
    return entries if not since_id else [entry for entry in entries if entry.entry_id > since_id]

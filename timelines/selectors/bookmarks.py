"""Reading bookmarks: a person's saved posts, newest bookmark first, through the per-recipient policy at read
time (a post they may no longer see, or a deleted one, is left out)."""

from __future__ import annotations

from dataclasses import dataclass

from timelines import limits, policy, store
from timelines.records import TimelineEntry
from timelines.selectors.entries import entries_for
from timelines.selectors.timelines import clamp_count


@dataclass(frozen=True, slots=True)
class BookmarkPage:
    entries: list[TimelineEntry]
    # The cursor of every bookmark the page read, shown or not, newest first: pages continue from these.
    cursors: list[int]
    next_before: int | None  # the cursor to read the next (older) page from, when there may be more


def get_bookmarks(
    *,
    uid: int,
    count: int = limits.DEFAULT_PAGE_SIZE,
    before: int | None = None,
    after: int | None = None,
    oldest_first: bool = False,
) -> BookmarkPage:
    """``uid``'s bookmarks with a cursor strictly between ``after`` and ``before``, newest first: the newest
    ``count`` of them, or with ``oldest_first`` the ``count`` just after ``after`` (a page back towards the
    newest). Two round trips (the ids, then the page read with the policy's state)."""
    count = clamp_count(count)
    pairs = store.bookmarks.bookmark_page(uid, below=before, above=after, oldest_first=oldest_first, count=count)
    entries, _ = entries_for([status_id for status_id, _ in pairs], viewer=uid, context=policy.PAGE)
    cursors = [cursor for _, cursor in pairs]
    return BookmarkPage(entries, cursors, cursors[-1] if len(pairs) >= count else None)

"""Reading likes: the posts someone liked, most recent like first (``/@login/likes``); never a direct message."""

from __future__ import annotations

from dataclasses import dataclass

from timelines import exceptions, limits, policy, store
from timelines import visibility as visibilities
from timelines.records import TimelineEntry
from timelines.selectors.entries import entries_for
from timelines.selectors.timelines import clamp_count


@dataclass(frozen=True, slots=True)
class LikedPage:
    entries: list[TimelineEntry]
    next_before: float | None  # the like time to page from, when there may be more
    # The like time of every like the page read, shown or not, newest first (the client API's cursors).
    times: tuple[float, ...] = ()


def get_liked_statuses(
    *,
    uid: int,
    count: int = limits.DEFAULT_PAGE_SIZE,
    before: float | None = None,
    viewer_uid: int | None = None,
    after: float | None = None,
    oldest_first: bool = False,
) -> LikedPage:
    """The posts ``uid`` liked, most recent like first, liked before ``before`` (the previous page's
    ``next_before``) and after ``after`` (with ``oldest_first``: the ``count`` just after it), as ``viewer_uid``
    may see them. Likes are ordered by when they happened, not by post id, so the cursor is a like time. Raises
    ``UnknownUser``."""
    count = clamp_count(count)
    pairs = store.likes.liked_page(uid, before=before, count=count, after=after, oldest_first=oldest_first)
    if not pairs and not store.users.get_user(uid):
        raise exceptions.UnknownUser()
    entries, _ = entries_for([status_id for status_id, _ in pairs], viewer=viewer_uid, context=policy.PAGE)
    # A liked direct message stays in its conversation: a likes page is part of a profile (issue 19).
    entries = [entry for entry in entries if entry.status.visibility != visibilities.DIRECT]
    return LikedPage(entries, pairs[-1][1] if len(pairs) >= count else None, tuple(time for _, time in pairs))

"""Bookmarks (Mastodon's): a private list of the posts a person saved, newest bookmark first. Nobody else is
told or can read it; no event is published.

Bookmarking needs the same right to see the post as liking it (``status_to_act_on``), and a repost is
bookmarked as its original. What the list shows is judged again when it is read (``selectors.bookmarks``), so a
post its reader may no longer see, or that was deleted, stays out of sight without being written anywhere.
"""

from __future__ import annotations

import time

from timelines import exceptions, limits, store
from timelines.services.visibility import status_to_act_on


def bookmark_status(*, uid: int, status_id: int) -> bool:
    """Bookmark ``status_id`` (the original, for a repost) for ``uid``; True if it was not bookmarked yet (a
    repeat keeps its first place). Raises ``StatusNotFound`` when the post is missing or ``uid`` may not see
    it, and ``TooManyBookmarks`` past ``limits.MAX_BOOKMARKS`` (bookmarks of deleted posts are dropped first)."""
    target = int(status_to_act_on(uid=uid, status_id=status_id)["id"])
    now = time.time_ns() // 1000
    added = store.bookmarks.add_bookmark(uid, target, now, limits.MAX_BOOKMARKS)
    if added < 0 and _drop_deleted(uid):
        added = store.bookmarks.add_bookmark(uid, target, now, limits.MAX_BOOKMARKS)
    if added < 0:
        raise exceptions.TooManyBookmarks()
    return bool(added)


def unbookmark_status(*, uid: int, status_id: int) -> bool:
    """Take ``status_id`` (the original, for a repost) out of ``uid``'s bookmarks; True if it was there. Raises
    ``StatusNotFound`` when the post is missing or ``uid`` may not see it, as ``bookmark_status`` does, so both
    answer alike for a hidden post (its bookmark stays, out of sight, until the post shows again)."""
    target = int(status_to_act_on(uid=uid, status_id=status_id)["id"])
    return store.bookmarks.remove_bookmark(uid, target)


def _drop_deleted(uid: int) -> int:
    """Remove the bookmarks of posts that no longer exist; how many went. O(bookmarks): runs only when the list
    is full."""
    ids = store.bookmarks.all_bookmarks(uid)
    gone = [status_id for status_id, found in zip(ids, store.statuses.statuses_exist(ids), strict=True) if not found]
    return store.bookmarks.remove_bookmarks(uid, gone)

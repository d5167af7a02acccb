"""Reading tags and public listings: a tag's public timeline, the site's local timeline (every public post) and
the tags trending over the last 24 hours (issue 10)."""

from __future__ import annotations

import time
from collections.abc import Callable

from timelines import keys, limits, policy, store, text
from timelines.records import TimelineEntry
from timelines.selectors.entries import entries_for
from timelines.selectors.timelines import MAX_REFILL_READS, clamp_count

TRENDING_COUNT = 10


def get_tag_timeline(
    *, tag: str, count: int = limits.DEFAULT_PAGE_SIZE, max_id: int | None = None, viewer_uid: int | None = None
) -> list[TimelineEntry]:
    """A page of the public posts tagged ``tag`` (with or without ``#``, any case), newest first, as
    ``viewer_uid`` (None: anonymous) may see them. The next page is ``max_id=<last id returned>``: the
    cursor is exclusive and ids grow with time, so pages never repeat or skip a post while new ones arrive.

    Two round trips when nothing is filtered out; deleted and refused posts are replaced from further down,
    at most ``MAX_REFILL_READS`` more times, like home pages. Anything that is not a tag has no posts.
    """
    name = text.normalize_tag(tag.removeprefix("#"))
    if not text.is_tag(name):
        return []
    return _listing(
        lambda cursor, wanted: store.tags.tag_page(name, max_id=cursor, count=wanted), count, max_id, viewer_uid
    )


def get_local_timeline(
    *, count: int = limits.DEFAULT_PAGE_SIZE, max_id: int | None = None, viewer_uid: int | None = None
) -> list[TimelineEntry]:
    """A page of the site's public posts (no reposts), newest first, as ``viewer_uid`` (None: anonymous) may see
    them: the client API's public (local) timeline. Paged and refilled like ``get_tag_timeline``."""
    return _listing(
        lambda cursor, wanted: store.tags.local_page(max_id=cursor, count=wanted), count, max_id, viewer_uid
    )


def _listing(
    read: Callable[[int, int], list[int]], count: int, max_id: int | None, viewer_uid: int | None
) -> list[TimelineEntry]:
    """A page of a public listing whose ids ``read(cursor, wanted)`` gives, through the policy (``LISTING``)."""
    count = clamp_count(count)
    statuses: list[TimelineEntry] = []
    cursor = max_id or 0
    for _ in range(1 + MAX_REFILL_READS):
        wanted = count - len(statuses)
        ids = read(cursor, wanted)
        entries, _ = entries_for(ids, viewer=viewer_uid, context=policy.LISTING)
        statuses.extend(entries)
        if len(ids) < wanted or len(statuses) >= count:
            break
        cursor = ids[-1]
    return statuses


def get_trending_tags(*, count: int = TRENDING_COUNT, now: float | None = None) -> list[tuple[str, int]]:
    """The ``count`` tags used in the most public posts over the 24 hours up to ``now`` (default: the current
    time), as (tag, uses), most used first, ties by name.

    The window is the current hour's bucket and the 23 before it (``keys.trending_hour``). One round trip (a
    ZUNION on one slot), a read: O(tags used in the window).
    """
    hour = keys.trending_hour(time.time() if now is None else now)
    pairs = store.tags.trending(range(hour - limits.TRENDING_HOURS + 1, hour + 1))
    ranked = sorted(((tag, int(uses)) for tag, uses in pairs if uses > 0), key=lambda pair: (-pair[1], pair[0]))
    return ranked[: max(0, int(count))]

"""A viewer's own flags on statuses read without a page (a notification's status, a streamed one): whether they
liked, reposted or bookmarked each (``store.viewer_flags``), as a page read gives them (``selectors.entries``)."""

from __future__ import annotations

from collections.abc import Sequence

from timelines import store
from timelines.records import TimelineEntry


def with_viewer_flags(entries: Sequence[TimelineEntry], *, viewer: int | None) -> list[TimelineEntry]:
    """``entries`` with ``liked``, ``reposted`` and ``bookmarked`` set for ``viewer`` (of the status each shows,
    the original for a repost); unchanged for an anonymous viewer. One round trip."""
    if viewer is None or not entries:
        return list(entries)
    flags = store.viewer_flags.viewer_flags(viewer, [entry.status.id for entry in entries])
    return [
        TimelineEntry.make(entry.status, entry.reposted_by, entry.repost_id, liked, reposted, entry.repost, bookmarked)
        for entry, (liked, reposted, bookmarked) in zip(entries, flags, strict=True)
    ]

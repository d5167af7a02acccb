"""Reading timelines: home, profile and list pages (book listing 8.3), through the per-recipient policy.

A page costs one round trip on a single Redis server when this process has seen its statuses before
(``store.pages.read_page``: the ids with everything about them that can change, and the policy's relations;
``selectors.entries`` explains the rest), one more for the statuses it has not seen. Statuses deleted since
their id was written ("zombies") and entries the policy does not let the viewer see are skipped, and on a first
page or a cursor page their places are filled from further down the timeline, at most ``MAX_REFILL_READS``
more times. Entries read like their
status (``records.TimelineEntry``), and say who reposted them. A home has the posts of the followed accounts too
followed to push merged in as it is read (hybrid fan-out, ``store.pulled``), in the same round trip on one server.
"""

from __future__ import annotations

from timelines import exceptions, keys, limits, policy, store
from timelines.records import TimelineEntry
from timelines.selectors.entries import entries_of

# How many extra reads a page may spend replacing statuses it could not show (deleted or refused).
MAX_REFILL_READS = 3


def clamp_count(count: int) -> int:
    return max(1, min(int(count), limits.MAX_PAGE_SIZE))


_SELF = object()


def get_status_messages(
    *,
    uid: int,
    timeline: str = "home",
    page: int = 1,
    count: int = limits.DEFAULT_PAGE_SIZE,
    max_id: int | None = None,
    since_id: int | None = None,
    viewer_uid: int | object | None = _SELF,
) -> list[TimelineEntry]:
    """A page of statuses from ``uid``'s ``"home"`` or ``"profile"`` timeline, newest first (book listing 8.3).

    Two ways to page: ``page``/``count`` like the book, or cursors that stay stable while new statuses arrive:
    ``max_id`` returns statuses older than that id and ``since_id`` statuses newer than it (both exclusive),
    so the next page is ``max_id=<last id returned>``. ``viewer_uid`` is who reads (None: an anonymous
    reader); it defaults to ``uid`` for a home and to an anonymous reader for a profile. Raises
    ``UnknownUser``.
    """
    if viewer_uid is _SELF:
        viewer_uid = uid if timeline == "home" else None
    return _timeline_messages(
        keys.timeline(timeline, uid),
        keys.user(uid),
        exceptions.UnknownUser,
        viewer_uid,  # type: ignore[arg-type]
        policy.FEED if timeline == "home" else policy.PAGE,
        page,
        count,
        max_id,
        since_id,
        merge_for=uid if timeline == "home" else None,
    )


def get_list_status_messages(
    *,
    list_id: int,
    page: int = 1,
    count: int = limits.DEFAULT_PAGE_SIZE,
    max_id: int | None = None,
    since_id: int | None = None,
    viewer_uid: int | None = None,
) -> list[TimelineEntry]:
    """A page of statuses from a list's timeline, newest first, paged like ``get_status_messages``, as
    ``viewer_uid`` (None: anonymous) may see them (the book's exercise "Lists of users"). Raises
    ``UnknownList``."""
    return _timeline_messages(
        keys.list_timeline(list_id),
        keys.user_list(list_id),
        exceptions.UnknownList,
        viewer_uid,
        policy.FEED,
        page,
        count,
        max_id,
        since_id,
    )


def _timeline_messages(
    key: str,
    owner_key: str,
    missing: type[exceptions.TimelineError],
    viewer_uid: int | None,
    context: str,
    page: int,
    count: int,
    max_id: int | None,
    since_id: int | None,
    merge_for: int | None = None,
) -> list[TimelineEntry]:
    if page < 1:
        raise ValueError("page starts at 1")
    count = clamp_count(count)
    offset = (page - 1) * count
    statuses: list[TimelineEntry] = []
    cursor = max_id or 0
    for _ in range(1 + MAX_REFILL_READS):
        wanted = count - len(statuses)
        read = store.pages.read_page(
            key,
            owner_key,
            viewer=viewer_uid,
            max_id=cursor,
            since_id=since_id or 0,
            offset=offset,
            count=wanted,
            merge_for=merge_for,
            merge_cap=limits.MAX_MERGED_PER_READ,
        )
        if read is None:
            raise missing()
        ids = read.ids
        entries, _ = entries_of(read, viewer=viewer_uid, context=context)
        statuses.extend(entries[: count - len(statuses)])
        # Refill only when paging by cursor: with page numbers the next page would repeat what a refill took.
        if len(ids) < wanted or len(statuses) >= count or page > 1:
            break
        cursor, offset = ids[-1], 0
    return statuses


def get_followed_pulled_authors(*, uid: int, limit: int = 1000) -> tuple[list[int], list[int]]:
    """The accounts whose posts are merged into homes when read (``services.pulled``; at most ``limit``, the most
    recently active), and those of them ``uid`` follows: their new posts reach ``uid``'s home by that merge, not
    by a write (the live home follows them)."""
    return store.pulled.followed_authors(uid, limit)

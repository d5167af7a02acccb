"""Turning the ids of a timeline into what a viewer sees: entries with the status to show, who reposted it,
and whether the viewer liked, reposted or bookmarked it.

One round trip on a single Redis server once this process has seen the page's statuses: ``store.pages`` reads what
can change (existence, counters, the viewer's likes, reposts and bookmarks, the policy's relations with the page's
authors) and ``status_cache`` supplies the rest, reading the full hashes of statuses it has not seen in one more
round trip. Deleted statuses, reposts of deleted originals and what the policy does not let the viewer see are left
out; an original that would show twice on one page (through the author and through a repost that reached the
timeline first) shows once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from timelines import policy, store
from timelines.records import Author, TimelineEntry
from timelines.selectors.status_cache import get_statuses as cached_statuses
from timelines.store.pages import PageRead


def entries_for(
    ids: Sequence[int], *, viewer: int | None, context: str = policy.FEED
) -> tuple[list[TimelineEntry], int]:
    """The entries of timeline ids ``ids`` (newest first) for ``viewer``; also returns how many of the ids
    had a status hash (the rest are zombies)."""
    return entries_of(store.pages.read_ids(ids, viewer=viewer), viewer=viewer, context=context)


def entries_of(read: PageRead, *, viewer: int | None, context: str = policy.FEED) -> tuple[list[TimelineEntry], int]:
    """``entries_for`` from a page already read (``store.pages.read_page``)."""
    # Every status of every page comes through here: the rows are unpacked whole (one C step), not read by name.
    wanted: dict[int, tuple[int, float | None, tuple[int, int, int], bool, int]] = {}
    for status_id, row in zip(read.ids, read.entries, strict=True):
        (posted, uid, repost_of, replies, reposts, likes, reply_gone, o_posted, o_uid, o_replies, o_reposts, o_likes,
         o_gone, _, _, edits, o_edits, _) = row  # fmt: skip
        if uid is None:
            continue
        wanted[status_id] = (status_id, posted, (replies, reposts, likes), reply_gone == 1, edits)
        if o_uid is not None:
            wanted[repost_of] = (repost_of, o_posted, (o_replies, o_reposts, o_likes), o_gone == 1, o_edits)
    records = cached_statuses(list(wanted.values()))
    entries: list[TimelineEntry] = []
    seen: set[int] = set()
    found = 0
    make = TimelineEntry.make
    get = records.get
    for status_id, row in zip(read.ids, read.entries, strict=True):
        status = get(status_id)
        if status is None:
            continue
        found += 1
        if status.repost_of is not None:
            original = get(status.repost_of)
            if original is None:
                continue
            by = Author(status.uid, status.login, status.name)
            status_id = original.id
            entry = make(original, by, status.id, row.liked == 1, row.reposted == 1, status, row.bookmarked == 1)
        else:
            entry = make(status, None, None, row.liked == 1, row.reposted == 1, None, row.bookmarked == 1)
        if status_id in seen:
            continue
        seen.add(status_id)
        entries.append(entry)
    return visible_entries(viewer, entries, context, relations=read.relations), found


def visible_entries(
    viewer: int | None, entries: list[TimelineEntry], context: str = policy.FEED, *, relations: Any = None
) -> list[TimelineEntry]:
    """The entries ``viewer`` may see: the shown status, and for a repost the reposter too, through the
    policy. ``relations``: what ``store.pages`` read for the policy with the page, when it did."""
    if not entries:
        return entries
    chooser = policy.get_policy()
    statuses = [entry.status for entry in entries]
    # The reposts are statuses of their own (a private account's repost is private): the state knows them too.
    judged = [*statuses, *(entry.repost for entry in entries if entry.repost is not None)]
    state = None if relations is None else chooser.page_state(relations, statuses=judged)
    items = None
    if state is None:
        items = [policy.Item.of_status(status, context=context) for status in statuses]
        authors = {entry.status.uid for entry in entries} | {e.reposted_by.id for e in entries if e.reposted_by}
        repost_items = [policy.Item.of_status(status, context=context) for status in judged[len(statuses) :]]
        state = chooser.load(recipients=(viewer,), authors=authors, items=[*items, *repost_items])
    if chooser.allows_all(state):
        return entries
    if items is None:
        items = [policy.Item.of_status(status, context=context) for status in statuses]
    kept = []
    for entry, status_item in zip(entries, items, strict=True):
        if not chooser.allows(state, recipient=viewer, item=status_item):
            continue
        if entry.reposted_by is not None:
            item = policy.Item(
                author_uid=entry.reposted_by.id,
                status_id=entry.repost_id,
                kind="repost",
                fields={**(entry.repost or {}), "repost_of_uid": entry.status.uid},
                context=context,
            )
            if not chooser.allows(state, recipient=viewer, item=item):
                continue
        kept.append(entry)
    return kept

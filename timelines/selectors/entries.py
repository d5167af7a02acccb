"""Turning the ids of a timeline into what a viewer sees: entries with the status to show, who reposted it,
and whether the viewer liked or reposted it, in a fixed number of round trips whatever the page's size.

Round trips for a page of ids: one pipeline of the status hashes, then one pipeline holding the originals of
any reposts together with the viewer's likes and reposts of everything shown (ZMSCORE and HMGET: one command
each for the whole page). Deleted statuses, reposts of deleted originals and what the policy does not let the
viewer see are left out; an original that would show twice on one page (through the author and through a
repost that reached the timeline first) shows once.
"""

from __future__ import annotations

from collections.abc import Sequence

from timelines import policy, store
from timelines.records import Author, Status, TimelineEntry


def entries_for(
    ids: Sequence[int], *, viewer: int | None, context: str = policy.FEED
) -> tuple[list[TimelineEntry], int]:
    """The entries of timeline ids ``ids`` (newest first) for ``viewer``; also returns how many of the ids
    had a status hash (the rest are zombies)."""
    hashes = store.statuses.get_statuses(ids)
    found = [fields for fields in hashes if fields]
    original_ids = sorted({int(fields["repost_of"]) for fields in found if fields.get("repost_of")})
    shown_ids = [int(fields.get("repost_of") or fields["id"]) for fields in found]
    originals, liked, reposted = store.statuses.get_statuses_and_flags(original_ids, viewer, shown_ids)
    by_id = {original_id: fields for original_id, fields in zip(original_ids, originals, strict=True) if fields}
    entries: list[TimelineEntry] = []
    seen: set[int] = set()
    for fields, is_liked, is_reposted in zip(found, liked, reposted, strict=True):
        if fields.get("repost_of"):
            original = by_id.get(int(fields["repost_of"]))
            if original is None:
                continue
            status = Status.from_hash(original)
            by = Author(int(fields["uid"]), fields["login"], fields.get("name") or fields["login"])
            entry = TimelineEntry(status, by, int(fields["id"]), is_liked, is_reposted)
        else:
            entry = TimelineEntry(Status.from_hash(fields), None, None, is_liked, is_reposted)
        if entry.status.id in seen:
            continue
        seen.add(entry.status.id)
        entries.append(entry)
    return visible_entries(viewer, entries, context), len(found)


def visible_entries(
    viewer: int | None, entries: list[TimelineEntry], context: str = policy.FEED
) -> list[TimelineEntry]:
    """The entries ``viewer`` may see: the shown status, and for a repost the reposter too, through the
    policy."""
    if not entries:
        return entries
    chooser = policy.get_policy()
    authors = {entry.status.uid for entry in entries} | {e.reposted_by.id for e in entries if e.reposted_by}
    items = [policy.Item.of_status(entry.status, context=context) for entry in entries]
    state = chooser.load(recipients=(viewer,), authors=authors, items=items)
    if chooser.allows_all(state):
        return entries
    kept = []
    for entry, status_item in zip(entries, items, strict=True):
        if not chooser.allows(state, recipient=viewer, item=status_item):
            continue
        if entry.reposted_by is not None:
            item = policy.Item(
                author_uid=entry.reposted_by.id,
                status_id=entry.repost_id,
                kind="repost",
                fields={"repost_of_uid": entry.status.uid},
                context=context,
            )
            if not chooser.allows(state, recipient=viewer, item=item):
                continue
        kept.append(entry)
    return kept

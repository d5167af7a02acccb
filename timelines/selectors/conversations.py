"""Reading a conversation: a post with its ancestors above it and its replies below it, as a tree.

The shape comes from ``thread:{root}`` (reply -> parent for every reply of the conversation, deleted ones
included), so one read gives both directions: ancestors are the parent links walked up from the post (at most
``MAX_ANCESTORS``), descendants a depth-first walk down from it with siblings oldest first. Replies are paged
in that order; the cursor is the last reply shown, and the next page starts right after its place in the
walk. Deleted replies keep their place (a tombstone), so a cursor never moves, and a reply added meanwhile
shows in its place when the page is read again. Cost: three round trips (the post, the shape, and the shown
statuses read as any page is, ``store.pages.read_ids``: what can change, with the viewer's likes and reposts
and the policy's relations, the rest from the process's status cache), whatever the page size.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from timelines import exceptions, limits, policy, store
from timelines.records import Status, TimelineEntry
from timelines.selectors.entries import entries_for


@dataclass(frozen=True, slots=True)
class ThreadItem:
    """One post of a thread as shown: its entry (None when it was deleted or cannot be shown), its id, and
    how deep it is indented below the focused post (0 for ancestors and the post itself)."""

    id: int
    entry: TimelineEntry | None
    depth: int = 0


@dataclass(frozen=True, slots=True)
class Thread:
    ancestors: list[ThreadItem]
    status: TimelineEntry
    descendants: list[ThreadItem]
    next_cursor: int | None  # the last reply shown, when there are more


def _walk(children: dict[int, list[int]], start: int) -> list[tuple[int, int]]:
    """(id, depth) of every descendant of ``start``, depth first, siblings oldest (smallest id) first."""
    order: list[tuple[int, int]] = []
    stack = [(child, 1) for child in sorted(children.get(start, []), reverse=True)]
    while stack:
        node, depth = stack.pop()
        order.append((node, depth))
        stack.extend((child, depth + 1) for child in sorted(children.get(node, []), reverse=True))
    return order


def get_thread(
    *,
    status_id: int,
    viewer_uid: int | None = None,
    max_id: int | None = None,
    count: int = limits.DEFAULT_PAGE_SIZE,
) -> Thread:
    """The conversation around ``status_id`` as ``viewer_uid`` (None: anonymous) may see it: ancestors oldest
    first, the post, and a page of its replies after the reply ``max_id`` (the previous page's
    ``next_cursor``). Raises ``StatusNotFound`` when the post is gone or the viewer may not see it."""
    fields = store.statuses.get_status(status_id)
    if not fields or fields.get("repost_of"):
        raise exceptions.StatusNotFound()
    focus = Status.from_hash(fields)
    root = focus.root or focus.id
    links = store.conversations.thread_links(root)
    ancestors: list[int] = []
    node = focus.in_reply_to
    while node is not None and len(ancestors) < limits.MAX_ANCESTORS:
        ancestors.append(node)
        node = links.get(node)
    ancestors.reverse()
    children: dict[int, list[int]] = defaultdict(list)
    for child, parent in links.items():
        children[parent].append(child)
    walk = _walk(children, focus.id)
    start = 0
    if max_id:
        positions = {node: index for index, (node, _) in enumerate(walk)}
        if max_id not in positions:
            raise exceptions.StatusNotFound()
        start = positions[max_id] + 1
    page = walk[start : start + max(1, min(count, limits.MAX_PAGE_SIZE))]
    shown = [*ancestors, focus.id, *(node for node, _ in page)]
    # No id of a thread is a repost (replies never are, and a repost has no page), so every entry is its own.
    found, _ = entries_for(shown, viewer=viewer_uid, context=policy.PAGE)
    visible = {entry.status.id: entry for entry in found}
    if focus.id not in visible:
        raise exceptions.StatusNotFound()
    more = start + len(page) < len(walk)
    return Thread(
        ancestors=[ThreadItem(node, visible.get(node)) for node in ancestors],
        status=visible[focus.id],
        descendants=[ThreadItem(node, visible.get(node), depth) for node, depth in page],
        next_cursor=page[-1][0] if more and page else None,
    )


def get_replies(
    *, status_id: int, viewer_uid: int | None = None, count: int = limits.DEFAULT_PAGE_SIZE
) -> list[Status]:
    """The first ``count`` direct replies of ``status_id``, oldest first, that ``viewer_uid`` (None: anonymous)
    may see; deleted ones left out. Two round trips (the replies' ZSET, then the page read)."""
    found = store.conversations.replies_after(status_id, None, max(1, min(count, limits.MAX_PAGE_SIZE)))
    entries, _ = entries_for([int(member) for member, _ in found], viewer=viewer_uid, context=policy.PAGE)
    return [entry.status for entry in entries]

"""Filling timelines from profiles: copying a newly followed author, removing an unfollowed one, refilling
after a removal, and rebuilding (the book's exercise "Refilling timelines").

A home timeline shows its owner and the people they follow; a list's timeline shows its members. Every
entry written here passes the per-recipient policy (``timelines.policy``) for the timeline's reader: the
home's owner, or the list's owner. Whatever changes a timeline here publishes a ``reset`` delivery event for
it (``timelines.events``): its open live pages read it again, as a reload would.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from timelines import events, exceptions, keys, limits, policy, queue, store
from timelines import visibility as visibilities
from timelines.services.publishing import publish
from timelines.services.users import require_user

Cursor = tuple[float, str]


@dataclass(frozen=True, slots=True)
class _Timeline:
    """A timeline that is filled from the profiles of a set of users: a home or a list's timeline."""

    key: str
    owner_key: str  # user:{uid} or list:{id}: writes stop once it is gone
    sources: str  # following:{uid} or list:in:{id}
    own_uid: int | None  # a home also shows its owner's own statuses
    job_kwargs: dict[str, int]
    list_id: int | None = None

    def reader(self) -> int | None:
        """Who reads this timeline, for the policy: the home's owner, or the list's owner (None once the list
        is gone)."""
        if self.list_id is None:
            return self.own_uid
        owners = store.lists.list_owners([self.list_id])
        return owners[0]


def _reset(timeline: _Timeline, pipe: Any = None) -> None:
    """Tell the timeline's open live pages that many of its entries changed at once (on ``pipe``, a
    ``store.batch``, when given)."""
    if timeline.list_id is not None:
        publish(events.delivered(events.RESET, lists=[timeline.list_id]), pipe=pipe)
    elif timeline.own_uid is not None:
        publish(events.delivered(events.RESET, homes=[timeline.own_uid]), pipe=pipe)


def _timeline(uid: int | None, list_id: int | None) -> _Timeline:
    if (uid is None) == (list_id is None):
        raise ValueError("Name either a user (their home timeline) or a list.")
    if list_id is not None:
        return _Timeline(
            keys.list_timeline(list_id),
            keys.user_list(list_id),
            keys.list_members(list_id),
            None,
            {"list_id": list_id},
            list_id,
        )
    assert uid is not None
    return _Timeline(keys.home_timeline(uid), keys.user(uid), keys.following(uid), uid, {"uid": uid})


def _allowed_entries(
    timeline: _Timeline, reader: int | None, per_source: Sequence[tuple[int, Sequence[tuple[int, float]]]]
) -> list[list[tuple[int, float]]]:
    """For each (author, entries), the entries ``reader`` may receive; nothing when there is no reader. Each
    status is judged as stored (the fields the policy names: its visibility, whose post a repost carries),
    read in one more round trip when the policy names any."""
    if reader is None:
        return [[] for _ in per_source]
    names = policy.get_policy().status_fields
    ids = [status_id for _, entries in per_source for status_id, _ in entries]
    stored = dict(zip(ids, store.statuses.get_status_fields(ids, names), strict=True))
    return _judged(
        timeline,
        reader,
        [
            (author, [(status_id, score, stored[status_id]) for status_id, score in entries])
            for author, entries in per_source
        ],
    )


def _with_direct_mentions(
    timeline: _Timeline, per_source: Sequence[tuple[int, Sequence[tuple[int, float, Mapping[str, str]]]]]
) -> dict[int, Mapping[str, str]]:
    """The fields to judge each status by: as given, and for a direct post in a home its mentions too, so a
    refill or a follow's copy brings it back to a mentioned follower, as delivery did (``services.delivery``).
    A list never shows a direct post: its fields stay without mentions, which the policy refuses. One more
    round trip, only when there is a direct post."""
    fields = {status_id: given for _, entries in per_source for status_id, _, given in entries}
    direct = [status_id for status_id, given in fields.items() if visibilities.of_status(given) == visibilities.DIRECT]
    if direct and timeline.list_id is None:
        for status_id, found in zip(direct, store.statuses.get_status_fields(direct, ["mentions"]), strict=True):
            fields[status_id] = {**fields[status_id], **found}
    return fields


def _judged(
    timeline: _Timeline,
    reader: int,
    per_source: Sequence[tuple[int, Sequence[tuple[int, float, Mapping[str, str]]]]],
) -> list[list[tuple[int, float]]]:
    """For each (author, entries of (status id, posted, its stored fields)), the (status id, posted) entries
    ``reader`` may receive in ``timeline``. One ``load`` of the policy."""
    chooser = policy.get_policy()
    fields = _with_direct_mentions(timeline, per_source)
    items = {
        status_id: policy.Item(author_uid=author, status_id=status_id, fields=fields[status_id])
        for author, entries in per_source
        for status_id, _, _ in entries
    }
    authors = {author for author, _ in per_source}
    authors |= {int(item.fields["repost_of_uid"]) for item in items.values() if item.fields.get("repost_of_uid")}
    state = chooser.load(recipients=(reader,), authors=authors, items=list(items.values()))
    if chooser.allows_all(state):
        return [[(status_id, score) for status_id, score, _ in entries] for _, entries in per_source]
    return [
        [
            (status_id, score)
            for status_id, score, _ in entries
            if chooser.allows(state, recipient=reader, item=items[status_id])
        ]
        for _, entries in per_source
    ]


def copy_author(
    *,
    author: int,
    uid: int | None = None,
    list_id: int | None = None,
    relations: store.privacy.Relations | None = None,
    pipe: Any = None,
) -> int:
    """Copy ``author``'s latest ``HOME_TIMELINE_SIZE`` statuses into ``uid``'s home or list ``list_id``'s
    timeline (trimmed), as a follow or a list add does; only while the timeline's owner exists. Returns how
    many were new. ``relations``: the policy's relations between the timeline's reader and ``author`` when the
    caller has just read them (a follow); ``pipe`` (a ``store.batch``): the event goes on it.

    The statuses holding none of the fields the policy reads (nearly all) share one verdict, their author's
    (``policy.Policy.status_fields``), and are copied on the server without coming to this process
    (``store.copies``); the others are judged one by one and added after them."""
    timeline = _timeline(uid, list_id)
    reader = timeline.reader()
    if reader is None:
        return 0
    chooser = policy.get_policy()
    copy = store.copies.copy_profile(
        timeline.owner_key,
        timeline.key,
        author,
        size=limits.HOME_TIMELINE_SIZE,
        limit=limits.HOME_TIMELINE_SIZE,
        copy_plain=_copies_plain(chooser, reader, author, relations),
        names=chooser.status_fields,
    )
    return _finish_copy(timeline, reader, author, copy, pipe)


@dataclass(frozen=True, slots=True)
class FollowCopy:
    """A follow's copy of the followee's statuses into the follower's home, to send with the follow's own writes
    (``store.graph.add_follow``); ``finish_follow_copy`` completes it from the reply."""

    call: store.lua.Call
    names: tuple[str, ...]
    publishes: bool = False  # the script publishes the home's reset event itself when it copied any status


def prepare_follow_copy(
    *, author: int, uid: int, score: float, relations: store.privacy.Relations, publishes: bool = False
) -> FollowCopy | None:
    """``copy_author`` of ``author`` into ``uid``'s home as a script call for the follow made at ``score`` (it
    copies nothing unless that follow is the one just made), judged by ``relations`` (read before the follow,
    the follow included); None on a cluster, where ``copy_author`` runs after the follow instead. ``publishes``:
    the script publishes the home's reset event itself, after its write (a copy sent in the follow's last
    batch, whose events it precedes)."""
    chooser = policy.get_policy()
    event = (keys.STREAM_CHANNEL, events.delivered(events.RESET, homes=[uid])) if publishes else None
    call = store.copies.follow_copy_call(
        uid,
        author,
        score,
        size=limits.HOME_TIMELINE_SIZE,
        limit=limits.HOME_TIMELINE_SIZE,
        copy_plain=_copies_plain(chooser, uid, author, relations),
        names=chooser.status_fields,
        event=event,
    )
    return None if call is None else FollowCopy(call, tuple(chooser.status_fields), publishes)


def finish_follow_copy(*, author: int, uid: int, prepared: FollowCopy, reply: Any, pipe: Any = None) -> int:
    """What ``copy_author`` does after its copy, for a copy sent with the follow (``prepare_follow_copy``): the
    statuses the policy judges one by one, and the home's reset event (on ``pipe``). How many were new."""
    copy = store.copies.copy_from_reply(reply, prepared.names)
    return _finish_copy(_timeline(uid, None), uid, author, copy, pipe, published=prepared.publishes and copy.added > 0)


def _copies_plain(chooser: policy.Policy, reader: int, author: int, relations: store.privacy.Relations | None) -> bool:
    """Whether ``reader`` may receive ``author``'s statuses that hold none of the fields the policy reads."""
    state = None if relations is None else chooser.page_state(relations, statuses=())
    if state is None:
        state = chooser.load(recipients=(reader,), authors=(author,))
    return chooser.allows_all(state) or chooser.allows(state, recipient=reader, item=policy.Item(author_uid=author))


def _finish_copy(
    timeline: _Timeline, reader: int, author: int, copy: store.copies.Copy, pipe: Any, *, published: bool = False
) -> int:
    """The statuses the policy judges one by one, then the timeline's reset event when anything was new (unless
    the copy's script ``published`` it already)."""
    if copy.added < 0:
        return 0
    added = copy.added
    if copy.held:
        [allowed] = _judged(timeline, reader, [(author, copy.held)])
        if allowed:
            added += max(
                0,
                store.timelines.add_to_guarded_timeline(
                    timeline.owner_key, timeline.key, allowed, size=limits.HOME_TIMELINE_SIZE
                ),
            )
    if added and not published:
        _reset(timeline, pipe)
    return added


def remove_author(*, author: int, uid: int | None = None, list_id: int | None = None) -> bool:
    """Remove every status of ``author`` that can still be in ``uid``'s home or list ``list_id``'s timeline
    (all those posted since its oldest entry, not only the latest 1,000), and queue a refill when that made
    room. Returns whether anything was removed."""
    timeline = _timeline(uid, list_id)
    return _remove_since(timeline, author, store.timelines.oldest_score(timeline.key))


def _remove_since(timeline: _Timeline, author: int, oldest: float | None, theirs: list[str] | None = None) -> bool:
    """Remove ``author``'s statuses posted since ``oldest`` from the timeline (``theirs``: those ids, or more,
    when the caller read them), numbering and queueing a refill run; whether it held any."""
    if oldest is None:
        return False
    if theirs is None:
        theirs = store.timelines.timeline_ids_since(keys.profile_timeline(author), oldest)
    if not theirs:
        return False
    # The removal and the new run's number in one round trip; the run is queued even when the timeline held
    # none of them (rare: an author whose posts all left it), since its number stops older runs.
    removed, run = store.refill.remove_and_start_refill(timeline.key, theirs)
    queue.enqueue_refill(**timeline.job_kwargs, run=run, cursor=None)
    if removed > 0:
        _reset(timeline)
    return removed > 0


@dataclass(frozen=True, slots=True)
class RefillStep:
    """What one refill step did: how many users' profiles it read, how many statuses were new to the timeline,
    and the cursor the next step starts from (None when the refill is over)."""

    sources: int
    added: int
    cursor: Cursor | None


def request_refill(*, uid: int | None = None, list_id: int | None = None) -> int:
    """Queue a refill of ``uid``'s home timeline or of list ``list_id``'s timeline and return its run number.

    Returns at once; the refill runs as a chain of ``refill_timeline`` jobs. Starting a run supersedes any
    older run of the same timeline still going (it stops at its next step), since the new run reads every
    source again anyway.
    """
    timeline = _timeline(uid, list_id)
    run = store.refill.start_refill_run(timeline.key)
    queue.enqueue_refill(**timeline.job_kwargs, run=run, cursor=None)
    return run


def refill_timeline(
    *,
    uid: int | None = None,
    list_id: int | None = None,
    run: int | None = None,
    cursor: Cursor | None = None,
    full: bool = False,
) -> RefillStep:
    """One step of refilling a home (``uid``) or list (``list_id``) timeline from the profiles of the people it
    shows: the next ``REFILL_USERS_STEP`` followees or members after ``cursor`` (a home's owner counts too).

    The book's exercise solution ``refill_timeline``, batched: a step reads from each profile only statuses
    newer than the timeline's ``HOME_TIMELINE_SIZE``-th entry (once it is full nothing older can make the cut),
    at most ``HOME_TIMELINE_SIZE`` of them, keeps those the policy lets the timeline's reader receive, keeps
    the newest ``HOME_TIMELINE_SIZE`` of the lot, adds them and trims, so the result is the newest statuses
    of all sources whatever their number. Statuses of a source unfollowed (or removed from the list) or
    deleted while the step ran are taken back out. Idempotent.

    With ``run`` (a job of ``request_refill``), a step stops when a newer run exists and queues the next step
    itself; without it the caller drives the steps (``rebuild_timeline``). A refill that starts on a full
    timeline stops at once unless ``full`` is set. O(REFILL_USERS_STEP) profile reads in one round trip.
    """
    timeline = _timeline(uid, list_id)
    if run is not None and store.refill.current_refill_run(timeline.key) != run:
        return RefillStep(0, 0, None)
    size = limits.HOME_TIMELINE_SIZE
    floor = store.timelines.lowest_kept_score(timeline.key, size)
    if cursor is None and floor is not None and not full:
        return RefillStep(0, 0, None)
    batch = store.graph.members_after(timeline.sources, cursor, limits.REFILL_USERS_STEP)
    sources = [int(member) for member, _ in batch]
    if cursor is None and timeline.own_uid is not None:
        sources.append(timeline.own_uid)
    read = store.timelines.profile_entries_newer_than(sources, floor, size)
    per_source = _allowed_entries(timeline, timeline.reader(), list(zip(sources, read, strict=True)))
    newest = heapq.nlargest(size, (entry for entries in per_source for entry in entries), key=lambda entry: entry[1])
    added = (
        store.timelines.add_to_guarded_timeline(timeline.owner_key, timeline.key, newest, size=size) if newest else 0
    )
    if added < 0:
        return RefillStep(len(sources), 0, None)  # the list was deleted: nothing left to fill
    if newest:
        _withdraw_stale(timeline, sources, per_source, {status_id for status_id, _ in newest})
    if added:
        _reset(timeline)
    next_cursor = (batch[-1][1], batch[-1][0]) if len(batch) >= limits.REFILL_USERS_STEP else None
    if run is not None and next_cursor is not None:
        queue.enqueue_refill(**timeline.job_kwargs, run=run, cursor=next_cursor)
    return RefillStep(len(sources), added, next_cursor)


def _withdraw_stale(
    timeline: _Timeline, sources: list[int], per_source: list[list[tuple[int, float]]], written: set[int]
) -> None:
    """Take back what a refill step just wrote from sources no longer followed (or members no longer listed)
    and statuses deleted meanwhile. Checked after the write, so either this sees the unfollow or deletion, or
    that change's own clean-up ran after the write and removed the entries."""
    checked = [source for source in sources if source != timeline.own_uid]
    left = {
        source
        for source, kept in zip(checked, store.graph.memberships(timeline.sources, checked), strict=True)
        if not kept
    }
    stale = [
        status_id
        for source, entries in zip(sources, per_source, strict=True)
        if source in left
        for status_id, _ in entries
        if status_id in written
    ]
    ids = sorted(written)
    stale.extend(
        status_id for status_id, exists in zip(ids, store.statuses.statuses_exist(ids), strict=True) if not exists
    )
    store.timelines.remove_from_timeline(timeline.key, stale)


@dataclass(frozen=True, slots=True)
class RebuildResult:
    """What ``rebuild_timeline`` changed: entries dropped (deleted statuses, authors no longer followed or
    listed), and the timeline's size before and after."""

    removed: int
    before: int
    after: int


def rebuild_timeline(
    *, uid: int | None = None, list_id: int | None = None, on_step: Callable[[int], object] | None = None
) -> RebuildResult:
    """Rebuild a home (``uid``) or list (``list_id``) timeline from the profiles of the people it shows.

    First drops entries that do not belong (deleted statuses, authors no longer followed or in the list, and
    what the policy no longer lets the reader receive), then runs every refill step in this process, even on a
    full timeline, so what is missing comes back. Safe while the site runs: every step is one of the
    idempotent steps the refill jobs use, and new posts keep arriving by fan-out. ``on_step`` is called with
    the number of profiles each step read (for a progress bar). Raises ``UnknownUser`` or ``UnknownList``.
    """
    timeline = _timeline(uid, list_id)
    if list_id is not None and not store.lists.get_list(list_id):
        raise exceptions.UnknownList()
    if uid is not None:
        require_user(uid)
    ids = store.timelines.timeline_ids(timeline.key)
    authors = store.statuses.status_authors(ids)
    others = sorted({author for author in authors if author is not None and author != timeline.own_uid})
    shown = {
        author for author, kept in zip(others, store.graph.memberships(timeline.sources, others), strict=True) if kept
    }
    if timeline.own_uid is not None:
        shown.add(timeline.own_uid)
    entries = [(author, [(status_id, 0.0)]) for status_id, author in zip(ids, authors, strict=True) if author in shown]
    allowed = {status_id for kept in _allowed_entries(timeline, timeline.reader(), entries) for status_id, _ in kept}
    dropped = [status_id for status_id in ids if status_id not in allowed]
    store.timelines.remove_from_timeline(timeline.key, dropped)
    if dropped:
        _reset(timeline)
    cursor: Cursor | None = None
    while True:
        step = refill_timeline(uid=uid, list_id=list_id, cursor=cursor, full=True)
        if on_step is not None:
            on_step(step.sources)
        if step.cursor is None:
            break
        cursor = step.cursor
    return RebuildResult(removed=len(dropped), before=len(ids), after=store.timelines.timeline_size(timeline.key))

"""An author's posts entering or leaving one timeline: copying a newly followed author (or a list's new member) into
it, and removing an unfollowed one (then refilling, ``services.refill``). Through the policy for the timeline's
reader, with a ``reset`` event for its open pages (``services.filled_timelines``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from timelines import events, keys, limits, policy, queue, store
from timelines.services.filled_timelines import Timeline, judged, reset, timeline_of


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
    timeline = timeline_of(uid, list_id)
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
    return _finish_copy(
        timeline_of(uid, None), uid, author, copy, pipe, published=prepared.publishes and copy.added > 0
    )


def _copies_plain(chooser: policy.Policy, reader: int, author: int, relations: store.privacy.Relations | None) -> bool:
    """Whether ``reader`` may receive ``author``'s statuses that hold none of the fields the policy reads."""
    state = None if relations is None else chooser.page_state(relations, statuses=())
    if state is None:
        state = chooser.load(recipients=(reader,), authors=(author,))
    return chooser.allows_all(state) or chooser.allows(state, recipient=reader, item=policy.Item(author_uid=author))


def _finish_copy(
    timeline: Timeline, reader: int, author: int, copy: store.copies.Copy, pipe: Any, *, published: bool = False
) -> int:
    """The statuses the policy judges one by one, then the timeline's reset event when anything was new (unless
    the copy's script ``published`` it already)."""
    if copy.added < 0:
        return 0
    added = copy.added
    if copy.held:
        [allowed] = judged(timeline, reader, [(author, copy.held)])
        if allowed:
            added += max(
                0,
                store.timelines.add_to_guarded_timeline(
                    timeline.owner_key, timeline.key, allowed, size=limits.HOME_TIMELINE_SIZE
                ),
            )
    if added and not published:
        reset(timeline, pipe)
    return added


def remove_author(*, author: int, uid: int | None = None, list_id: int | None = None) -> bool:
    """Remove every status of ``author`` that can still be in ``uid``'s home or list ``list_id``'s timeline
    (all those posted since its oldest entry, not only the latest 1,000), and queue a refill when that made
    room. Returns whether anything was removed."""
    timeline = timeline_of(uid, list_id)
    return _remove_since(timeline, author, store.timelines.oldest_score(timeline.key))


def _remove_since(timeline: Timeline, author: int, oldest: float | None, theirs: list[str] | None = None) -> bool:
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
        reset(timeline)
    return removed > 0

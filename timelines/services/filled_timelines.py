"""A timeline filled from profiles (a home or a list's timeline): where it is, who reads it, its ``reset`` event, and
the policy's judgement of the entries written into it (``services.author_copies``, ``services.refill``).

A home timeline shows its owner and the people they follow; a list's timeline shows its members. Every entry written
into one passes the per-recipient policy (``timelines.policy``) for the timeline's reader: the home's owner, or the
list's owner. Whatever changes such a timeline at once publishes a ``reset`` delivery event for it
(``timelines.events``): its open live pages read it again, as a reload would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from timelines import events, keys, policy, store
from timelines import visibility as visibilities
from timelines.services.publishing import publish


@dataclass(frozen=True, slots=True)
class Timeline:
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


def reset(timeline: Timeline, pipe: Any = None) -> None:
    """Tell the timeline's open live pages that many of its entries changed at once (on ``pipe``, a
    ``store.batch``, when given)."""
    if timeline.list_id is not None:
        publish(events.delivered(events.RESET, lists=[timeline.list_id]), pipe=pipe)
    elif timeline.own_uid is not None:
        publish(events.delivered(events.RESET, homes=[timeline.own_uid]), pipe=pipe)


def timeline_of(uid: int | None, list_id: int | None) -> Timeline:
    if (uid is None) == (list_id is None):
        raise ValueError("Name either a user (their home timeline) or a list.")
    if list_id is not None:
        return Timeline(
            keys.list_timeline(list_id),
            keys.user_list(list_id),
            keys.list_members(list_id),
            None,
            {"list_id": list_id},
            list_id,
        )
    assert uid is not None
    return Timeline(keys.home_timeline(uid), keys.user(uid), keys.following(uid), uid, {"uid": uid})


def allowed_entries(
    timeline: Timeline, reader: int | None, per_source: Sequence[tuple[int, Sequence[tuple[int, float]]]]
) -> list[list[tuple[int, float]]]:
    """For each (author, entries), the entries ``reader`` may receive; nothing when there is no reader. Each
    status is judged as stored (the fields the policy names: its visibility, whose post a repost carries),
    read in one more round trip when the policy names any."""
    if reader is None:
        return [[] for _ in per_source]
    names = policy.get_policy().status_fields
    ids = [status_id for _, entries in per_source for status_id, _ in entries]
    stored = dict(zip(ids, store.statuses.get_status_fields(ids, names), strict=True))
    return judged(
        timeline,
        reader,
        [
            (author, [(status_id, score, stored[status_id]) for status_id, score in entries])
            for author, entries in per_source
        ],
    )


def _with_direct_mentions(
    timeline: Timeline, per_source: Sequence[tuple[int, Sequence[tuple[int, float, Mapping[str, str]]]]]
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


def judged(
    timeline: Timeline,
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

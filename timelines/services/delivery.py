"""The delivery pipeline: the one path that takes a status to its audiences (book listing 8.7, generalised).

An audience is a sorted set of targets of the author, paged by a (score, member) cursor: ``followers`` (the
followers' home timelines) and ``lists`` (the timelines of the lists the author is in today). A delivery pass
reads the next ``POSTS_PER_PASS`` targets, asks the per-recipient policy (``timelines.policy``) which of their
owners may receive the item, writes it to those timelines, and queues the next pass as a job
(``queue.enqueue_delivery``) when the audience goes on. ``post_status`` runs the first pass of every audience
inline, so the cost of posting does not grow with the audience; the rest runs in resumable jobs.

``withdraw`` is the counterpart for a deleted status (the book's exercise "Cleaning out deleted IDs"): the
same audiences, the same cursor, the same batches. It asks no policy, since taking a status out of a timeline
that never held it changes nothing.

Every pass is idempotent (ZADD of the same score, the trim, ZREM), so a retried or repeated batch changes
nothing. Audiences are independent chains, so lists need not wait for a million followers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from timelines import keys, limits, policy, queue, store

Cursor = tuple[float, str]


@dataclass(frozen=True, slots=True)
class Audience:
    """Who a status of an author reaches, and where it is written for each of them."""

    name: str
    targets: Callable[[int], str]  # author uid -> ZSET of targets (followers:{uid}, list:out:{uid})
    timeline: Callable[[int], str]  # target -> the timeline written (home:{uid}, list:statuses:{id})


FOLLOWERS = Audience("followers", keys.followers, keys.home_timeline)
LISTS = Audience("lists", keys.listed_in, keys.list_timeline)
AUDIENCES: dict[str, Audience] = {audience.name: audience for audience in (FOLLOWERS, LISTS)}


def deliver_status(*, status: Mapping[str, Any]) -> None:
    """Run the first pass of every audience of a new ``status`` (the rest is queued)."""
    item = policy.Item.of_status(status)
    for audience in AUDIENCES:
        deliver(
            audience=audience,
            uid=item.author_uid,
            status_id=int(status["id"]),
            posted=float(status["posted"]),
            item=item,
        )


def deliver(
    *,
    audience: str,
    uid: int,
    status_id: int,
    posted: float,
    cursor: Cursor | None = None,
    item: policy.Item | None = None,
) -> int:
    """Deliver status ``status_id`` of ``uid`` to the next ``POSTS_PER_PASS`` targets of ``audience`` after
    ``cursor``, and queue the pass after it when there may be more.

    Book listing 8.7, fixed: the cursor is the last target reached (score and member), so a pass never repeats
    or skips one even when many share a score. A target whose owner the policy refuses is skipped; a list
    deleted meanwhile is skipped, not recreated. If the status was deleted while the pass ran, the pass takes
    it back out of the timelines it just wrote (the clean-up may already have passed them) and the chain stops.
    Returns the number of targets in this pass; O(POSTS_PER_PASS) in a fixed number of round trips.
    """
    chosen = AUDIENCES[audience]
    targets = store.graph.members_after(chosen.targets(uid), cursor, limits.POSTS_PER_PASS)
    if not targets:
        return 0
    members = [member for member, _ in targets]
    item = item or policy.Item(author_uid=uid, status_id=status_id)
    written = _allowed_targets(chosen, members, item)
    if chosen is LISTS:
        store.fanout.push_to_list_timelines(written, status_id, posted)
    else:
        store.fanout.push_to_home_timelines(written, status_id, posted)
    if not store.statuses.status_exists(status_id):
        store.fanout.remove_from_timelines([chosen.timeline(int(target)) for target in written], status_id)
        return len(targets)
    if len(targets) >= limits.POSTS_PER_PASS:
        last_member, last_score = targets[-1]
        queue.enqueue_delivery(
            audience=audience, uid=uid, status_id=status_id, posted=posted, cursor=(last_score, last_member)
        )
    return len(targets)


def _allowed_targets(audience: Audience, members: list[str], item: policy.Item) -> list[str]:
    """The targets whose owner may receive ``item``: a follower is their own recipient, a list's recipient is
    its owner (a list gone meanwhile has none and is skipped)."""
    if audience is LISTS:
        owners = store.lists.list_owners(members)
        pairs = [(member, owner) for member, owner in zip(members, owners, strict=True) if owner is not None]
    else:
        pairs = [(member, int(member)) for member in members]
    allowed = set(policy.allowed_recipients(item=item, recipients=[owner for _, owner in pairs]))
    return [member for member, owner in pairs if owner in allowed]


def withdraw_status(*, uid: int, status_id: int) -> None:
    """Run the first clean-up pass of every audience of a deleted status (the rest is queued)."""
    for audience in AUDIENCES:
        withdraw(audience=audience, uid=uid, status_id=status_id)


def withdraw(*, audience: str, uid: int, status_id: int, cursor: Cursor | None = None) -> int:
    """Remove deleted status ``status_id`` of ``uid`` from the timelines of the next ``POSTS_PER_PASS``
    targets of ``audience`` after ``cursor``, and queue the pass after it.

    Followers who came later never got the status (it had left the profile), those who left had it removed
    on unfollow. Idempotent (ZREM). Returns the number of targets in this pass.
    """
    chosen = AUDIENCES[audience]
    targets = store.graph.members_after(chosen.targets(uid), cursor, limits.POSTS_PER_PASS)
    store.fanout.remove_from_timelines([chosen.timeline(int(member)) for member, _ in targets], status_id)
    if len(targets) >= limits.POSTS_PER_PASS:
        last_member, last_score = targets[-1]
        queue.enqueue_withdrawal(audience=audience, uid=uid, status_id=status_id, cursor=(last_score, last_member))
    return len(targets)


# The book's names, kept for scripts written against them.


def syndicate_status(
    *, uid: int, status_id: int, posted: float, cursor: Cursor | None = None, on_lists: bool = False
) -> int:
    """One delivery pass to ``uid``'s followers' homes, or with ``on_lists`` to the lists ``uid`` is in
    (book listing 8.7 and the exercise "Updating lists"). See ``deliver``."""
    return deliver(
        audience=LISTS.name if on_lists else FOLLOWERS.name, uid=uid, status_id=status_id, posted=posted, cursor=cursor
    )


def clean_timelines(*, uid: int, status_id: int, cursor: Cursor | None = None, on_lists: bool = False) -> int:
    """One clean-up pass of a deleted status (the book's exercise "Cleaning out deleted IDs"). See
    ``withdraw``."""
    return withdraw(audience=LISTS.name if on_lists else FOLLOWERS.name, uid=uid, status_id=status_id, cursor=cursor)

"""The delivery pipeline: the one path that takes a status to its audiences (book listing 8.7, generalised).

An audience is a sorted set of targets of the author, paged by a (score, member) cursor: ``followers`` (the
followers' home timelines) and ``lists`` (the timelines of the lists the author is in today). A delivery pass
reads the next targets, asks the per-recipient policy (``timelines.policy``) which of their owners may receive
the item, writes it to those timelines, and queues the next pass as a job (``queue.enqueue_delivery``) when the
audience goes on. ``post_status`` runs the first pass of every audience inline (``POSTS_PER_PASS`` targets), so
the cost of posting does not grow with the audience; the rest runs in resumable jobs of ``DELIVERY_JOB_SIZE``
targets. A job queues its successor as soon as it knows where it stops, before its own writes, so that several
workers carry one chain at once.

``services.withdrawal`` is the counterpart for a deleted status (the book's exercise "Cleaning out deleted IDs"): the
same audiences, the same cursor, the same batches. It asks no policy, since taking a status out of a timeline
that never held it changes nothing.

Every pass is idempotent (ZADD of the same score, the trim, ZREM), so a retried or repeated batch changes
nothing. Audiences are independent chains, so lists need not wait for a million followers.

Each pass then publishes what it wrote to whom, one ``timeline.delivery`` event per pass (``timelines.events``):
``post`` with the homes (owner uids) and lists (list ids) that received the status, ``delete`` with those it was
withdrawn from, ``reset`` for timelines changed in bulk (a repost standing in for a deleted one). The author's own
home counts in the first pass. Open live pages (``streaming.live``) and the client API's ``user`` stream follow
these events and decide nothing themselves, so an open page shows what a reload would. One event per pass, not
one per recipient: the event's cost is a few bytes per recipient, where one per recipient repeats the status (see
the README's "One delivery that every live view follows" for the figures).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from timelines import events, hooks, limits, policy, queue, store
from timelines import visibility as visibilities
from timelines.records import mention_pairs
from timelines.services.audiences import (
    AUDIENCES,
    FOLLOWERS,
    LISTS,
    Audience,
    Cursor,
    announce,
    audience_keys,
    take_back,
)
from timelines.services.direct_messages import deliver_message
from timelines.services.notifications import MENTION, REPLY, notify
from timelines.services.pulled import pull_instead
from timelines.services.tag_delivery import deliver_to_tag_followers
from timelines.services.typed import typed

__all__ = ["AUDIENCES", "deliver", "deliver_status", "syndicate_status", "typed"]


def deliver_status(
    *,
    status: Mapping[str, Any],
    first: Sequence[list[tuple[str, float]] | int] | None = None,
    shown: Mapping[str, Any] | None = None,
    own_home: bool = False,
    announced: list[str] | None = None,
    remote_followers: bool | None = None,
) -> None:
    """Run the first pass of every audience of a new ``status`` (the rest is queued), then notify the people
    it answers or mentions. A repost (``repost_of`` set) is delivered with deduplication of its original.
    ``first``: the first ``POSTS_PER_PASS`` targets of each audience (``audience_keys``), when the caller read
    them with its own writes (for the followers, their number instead when past the pull threshold).
    ``shown``: the status as its events carry it (a repost with its original), when it differs from ``status``;
    ``own_home``: the caller wrote it to its author's home, which the first pass's event names too;
    ``announced``: the first passes' events are added to it, for the caller to publish with its own last round
    trip, instead of being published here. ``remote_followers``: whether the author has followers on other
    servers, when the caller read it with its writes (``hooks.remote_audience_key``).

    A ``direct`` post is a direct message: it goes to its participants' conversation
    (``direct_messages.deliver_message``) and the people it mentions are notified; it reaches no home and no
    list (issue 19: messages live in /messages and notifications only)."""
    item = policy.Item.of_status(status)
    repost_of = status.get("repost_of")
    if not repost_of and visibilities.of_status(status) == visibilities.DIRECT:
        deliver_message(status)
        _notify_conversation(status)
        # The people of other servers it mentions (issue 22), through the federation app.
        hooks.status_delivered(status)
        return
    if first is None:
        # Every audience's first targets in one round trip.
        first = store.graph.members_after_many(
            [(key, None, limits.POSTS_PER_PASS) for key in audience_keys(item.author_uid)]
        )
    if own_home and repost_of:
        # The reposter's own home holds the repost, but shows it only as the policy lets them see it (a repost of
        # someone they mute or block is kept out of their feed by every read): so does the event.
        own_home = bool(policy.allowed_recipients(item=item, recipients=[item.author_uid]))
    for audience, targets in zip(AUDIENCES, first, strict=True):
        if audience == FOLLOWERS.name and pull_instead(
            uid=item.author_uid, status_id=int(status["id"]), posted=float(status["posted"]), followers=targets
        ):
            # Too many followers to push: merged into their homes when read (services.pulled). The event says
            # so (``followers_of``): open homes of its followers judge it as their read does.
            own = item.author_uid if own_home else None
            announce(events.POST, FOLLOWERS, [], shown or status, own_home=own, announced=announced, pulled=True)
            continue
        deliver(
            audience=audience,
            uid=item.author_uid,
            status_id=int(status["id"]),
            posted=float(status["posted"]),
            item=item,
            repost_of=int(repost_of) if repost_of else None,
            targets=targets,
            shown=shown or status,
            own_home=own_home and audience == FOLLOWERS.name,
            announced=announced,
        )
    if not repost_of:
        _notify_conversation(status)
        # The followers of its tags (issue 20): public posts only, through the same policy.
        deliver_to_tag_followers(status)
    # The remote audience (issue 22): other servers' followers, reached through RQ by the federation app.
    hooks.status_delivered(status, remote_followers=remote_followers)


def _notify_conversation(status: Mapping[str, Any]) -> None:
    """The notification feeds a post reaches: "replied to you" for the author it answers, "mentioned you" for
    the others it mentions (Mastodon's ProcessMentionsService and NotifyService)."""
    author = int(status["uid"])
    status_id = int(status["id"])
    replied = status.get("in_reply_to_uid")
    if replied:
        notify(recipients=[int(replied)], kind=REPLY, actor=author, status_id=status_id, cause=status)
    # Other servers' accounts (``login@domain``) are told by their own server, which the post is delivered to.
    mentioned = [
        uid
        for uid, login in mention_pairs(status.get("mentions"))
        if uid != (int(replied) if replied else None) and "@" not in login
    ]
    notify(recipients=mentioned, kind=MENTION, actor=author, status_id=status_id, cause=status)


def deliver(
    *,
    audience: str,
    uid: int,
    status_id: int,
    posted: float,
    cursor: Cursor | None = None,
    item: policy.Item | None = None,
    repost_of: int | None = None,
    targets: list[tuple[str, float]] | None = None,
    count: int | None = None,
    shown: Mapping[str, Any] | None = None,
    own_home: bool = False,
    announced: list[str] | None = None,
) -> int:
    """Deliver status ``status_id`` of ``uid`` to the next ``count`` targets of ``audience`` after ``cursor``
    (``POSTS_PER_PASS``, the book's pass; a deferred job asks for ``DELIVERY_JOB_SIZE``), and queue the pass
    after it when there may be more.

    Book listing 8.7, fixed: the cursor is the last target reached (score and member), so a pass never repeats
    or skips one even when many share a score. A target whose owner the policy refuses is skipped; a list
    deleted meanwhile is skipped, not recreated. The next pass is queued before this one writes, so another
    worker can run it meanwhile, unless the status is already gone. If the status was deleted while the pass
    ran, the pass takes it back out of the timelines it just wrote (the clean-up may already have passed them);
    the pass after it finds the status gone and stops the chain. Returns the number of targets in this pass;
    O(count) in a fixed number of round trips. ``targets``: this pass's targets when the caller already read
    them (a new status, which exists); ``shown``: the status as events carry it (read when not given);
    ``own_home``: the author's home received it too (the first pass), which the pass's event names.

    Publishes one ``timeline.delivery`` event of kind ``post`` naming the timelines written (none when nothing
    was, or when the status was deleted meanwhile: its withdrawal's event covers the timelines).
    """
    chosen = AUDIENCES[audience]
    count = limits.POSTS_PER_PASS if count is None else count  # read when called, as every pass does
    stored = None
    if targets is None:
        # A deferred pass: a deleted status stops its chain here, and the one read also gives the policy the
        # status as stored.
        stored = store.statuses.get_status(status_id)
        if not stored:
            return 0
        members, last_score = store.graph.member_ids_after(chosen.targets(uid), cursor, count)
    else:
        members, last_score = [member for member, _ in targets], targets[-1][1] if targets else None
    if not members or last_score is None:
        if own_home and shown is not None:
            announce(events.POST, chosen, [], shown, own_home=int(shown["uid"]), announced=announced)
        return 0
    if len(members) >= count:
        queue.enqueue_delivery(
            audience=audience,
            uid=uid,
            status_id=status_id,
            posted=posted,
            cursor=(last_score, members[-1]),
            repost_of=repost_of,
        )
    if item is None:
        # A deferred pass knows only the ids its job carries: the policy judges the status as stored (whether
        # it is private, whose post a repost carries), never what the job's arguments say.
        stored = stored or store.statuses.get_status(status_id)
        if not stored:
            return len(members)  # deleted since: its clean-up takes it out of the timelines it reached
        item = policy.Item(
            author_uid=int(stored["uid"]),
            status_id=status_id,
            kind="repost" if repost_of else "status",
            fields=stored,
        )
    if repost_of and not item.fields.get("repost_of_uid"):
        # A repost stored without its original's author: that author is part of the decision.
        original = store.statuses.status_authors([repost_of])[0]
        item = policy.Item(item.author_uid, status_id, "repost", {**item.fields, "repost_of_uid": original})
    written = _allowed_targets(chosen, members, item)
    if repost_of:
        added = store.reposts.push_repost(chosen.name, written, repost_of, status_id, posted)
        exists = store.statuses.status_exists(status_id)
        reached = [target for target, was in zip(written, added, strict=True) if was]
    elif chosen is LISTS:
        store.fanout.push_to_list_timelines(written, status_id, posted)
        exists = store.statuses.status_exists(status_id)
        reached = written
    else:
        exists = store.fanout.push_to_home_timelines(written, status_id, posted)
        reached = written
    if not exists:
        take_back(chosen, written, status_id, repost_of)
        return len(members)
    if reached or own_home:
        shown = shown if shown is not None else _as_shown(stored, repost_of)
        if shown is not None:
            announce(events.POST, chosen, reached, shown, own_home=uid if own_home else None, announced=announced)
    return len(members)


def _as_shown(stored: Mapping[str, str] | None, repost_of: int | None) -> dict[str, Any] | None:
    """A stored status as events carry it (``typed``), a repost with its original in place of the id; None
    when either is gone (its withdrawal takes it out of the timelines). One more read for a repost."""
    if not stored:
        return None
    shown = typed(dict(stored))
    if repost_of:
        original = store.statuses.get_status(repost_of)
        if not original:
            return None
        shown["repost_of"] = typed(original)
    return shown


def _allowed_targets(audience: Audience, members: list[str], item: policy.Item) -> list[str]:
    """The targets whose owner may receive ``item``: a follower is their own recipient, a list's recipient is
    its owner (a list gone meanwhile has none and is skipped)."""
    if audience is LISTS:
        owners = store.lists.list_owners(members)
        pairs = [(member, owner) for member, owner in zip(members, owners, strict=True) if owner is not None]
    else:
        recipients = [int(member) for member in members]
        # They were read from the author's followers: the policy need not ask whether they follow the author.
        allowed_followers = policy.allowed_recipients(item=item, recipients=recipients, followers_of=item.author_uid)
        if len(allowed_followers) == len(recipients):
            return members  # the usual case: no rule refused anyone
        kept = set(allowed_followers)
        return [member for member, recipient in zip(members, recipients, strict=True) if recipient in kept]
    allowed = set(policy.allowed_recipients(item=item, recipients=[owner for _, owner in pairs]))
    return [member for member, owner in pairs if owner in allowed]


# The book's names, kept for scripts written against them.


def syndicate_status(
    *, uid: int, status_id: int, posted: float, cursor: Cursor | None = None, on_lists: bool = False
) -> int:
    """One delivery pass to ``uid``'s followers' homes, or with ``on_lists`` to the lists ``uid`` is in
    (book listing 8.7 and the exercise "Updating lists"). See ``deliver``."""
    return deliver(
        audience=LISTS.name if on_lists else FOLLOWERS.name, uid=uid, status_id=status_id, posted=posted, cursor=cursor
    )

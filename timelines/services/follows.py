"""Following and unfollowing (book 8.3, fixed): the two sides of the graph, then the follower's home; and
follow requests, which take the place of a follow when the account is private (Mastodon's locked accounts)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from timelines import events, exceptions, hooks, keys, queue, store
from timelines.services.activity import active_counter, record_active
from timelines.services.author_copies import FollowCopy, copy_author, finish_follow_copy, prepare_follow_copy
from timelines.services.notifications import FOLLOW, FOLLOW_REQUEST, notify, prepare_notification
from timelines.services.publishing import publish

logger = logging.getLogger(__name__)


REQUESTED = "requested"


def follow_user(*, uid: int, other_uid: int) -> bool | str:
    """Make ``uid`` follow ``other_uid``; True if they did not already (book listing 8.4, fixed). For a
    private account it records a follow request instead (the owner is notified) and returns ``REQUESTED``
    ("requested") while the request is pending; the follow is made when the owner approves it.

    Each side (following:{uid} with its counter, followers:{other} with its counter) is one atomic step that
    sets the counter from the set's size, so racing follows cannot double-count. The followee's side is
    written even when nothing changed, which completes a follow interrupted between the two steps. A new
    follow copies the followee's latest ``HOME_TIMELINE_SIZE`` statuses into the follower's home (trimmed),
    as far as the policy lets the follower receive them, and the followee is notified. Raises
    ``CannotFollowSelf``, ``UnknownUser`` or ``CannotFollow`` (a block stands between them).

    Cost on one server: 1 round trip for a new follow between plain accounts (no flag, block or mute either
    way): one script reads, follows, copies, notifies and publishes, as prepared for that case
    (``_plain_follow``). Any other follow takes 2 (the read with the graph's writes; then the copy, the
    notification and the events as the policy judges what was read). Either takes one more when the copy leaves
    statuses for the policy to judge one by one. On a cluster: the read, the graph, the copy's own round trips,
    then the last batch.
    """
    if uid == other_uid:
        raise exceptions.CannotFollowSelf()
    now = time.time()
    # On one server the read and, when nothing read stands in its way, the follow itself are one script: both
    # users' hashes (their existence, the followee's domain) and the relations both ways (the follow's checks and
    # copy need the follower's side, its notification the followee's). On a cluster the read is its own round trip.
    # A new follow between two plain accounts (no flags, no block or mute either way), the usual case, is done
    # whole in that script: its copy, notification, activity and event are prepared here for that case.
    plain = _plain_follow(uid, other_uid, now) if store.follow_pairs.in_one_step() else None
    pair = store.follow_pairs.follow_if_open(
        uid, other_uid, now, take_id=True, tail=None if plain is None else plain.tail
    )
    if plain is not None and pair is not None and pair.tail_done:
        if plain.copy is not None and pair.copied is not None:
            # The statuses the policy judges one by one (a round trip only when there are any).
            finish_follow_copy(author=other_uid, uid=uid, prepared=plain.copy, reply=pair.copied)
        return True
    if pair is None:
        hashes: dict[int, dict[str, str]] = {}
        relations = store.privacy.relations([uid, other_uid], [other_uid, uid], hashes=hashes)
    else:
        hashes, relations = pair.hashes, pair.relations
    if not hashes[uid] or not hashes[other_uid]:
        raise exceptions.UnknownUser()
    followee = hashes[other_uid]
    if relations.blocked:
        raise exceptions.CannotFollow()
    following = (uid, other_uid) in relations.follows
    # Another server's account has a domain in its profile (records.User.domain): only such an account costs the
    # federation's own check.
    if not following and followee.get("domain") and hooks.is_remote(other_uid):
        # Another server's account: the follow is made when its server accepts (issue 22, federation).
        request_follow(uid=uid, other_uid=other_uid, notify_followee=False)
        hooks.remote_follow_requested(uid=uid, other_uid=other_uid)
        return REQUESTED
    if not following and "private" in relations.flags.get(other_uid, frozenset()):
        request_follow(uid=uid, other_uid=other_uid)
        return REQUESTED
    if pair is not None and pair.follow is not None:
        return _after_follow(
            uid=uid,
            other_uid=other_uid,
            now=now,
            relations=relations,
            follow=pair.follow,
            copy=pair.followee_statuses > 0,
        )
    return make_follow(uid=uid, other_uid=other_uid, relations=relations)


def make_follow(
    *, uid: int, other_uid: int, notify_followee: bool = True, relations: store.privacy.Relations | None = None
) -> bool:
    """The follow itself, once allowed: both sides of the graph, then the follower's home. ``relations``: what
    ``store.privacy.relations([uid], [other_uid])`` read just before, when the caller has it (saves reading it
    again for the copy of the followee's posts)."""
    now = time.time()
    followed = None
    if relations is not None:
        # Judged as after the follow; the copy goes with the follow's writes and copies only if this call made it.
        followed = relations.with_follow(uid, other_uid)
    prepared = None
    if followed is not None:
        prepared = prepare_follow_copy(author=other_uid, uid=uid, score=now, relations=followed)
    follow = store.graph.add_follow(
        uid, other_uid, now, take_id=notify_followee, copy=None if prepared is None else prepared.call
    )
    added, theirs = follow.added, follow.theirs
    if added < 0 and theirs > 0:
        # Both sides went in one round trip; a follower gone meanwhile must not stay among the followers.
        store.graph.graph_remove(keys.followers(other_uid), keys.user(other_uid), uid, "followers")
    if added < 0 or theirs < 0:
        raise exceptions.UnknownUser()
    if added:
        with store.batch.pipeline() as pipe:
            if prepared is None:
                copy_author(author=other_uid, uid=uid, relations=followed, pipe=pipe)
            else:
                finish_follow_copy(author=other_uid, uid=uid, prepared=prepared, reply=follow.copied, pipe=pipe)
            _last_batch(
                uid=uid,
                other_uid=other_uid,
                now=now,
                followed=followed,
                notify_followee=notify_followee,
                notification_id=follow.notification_id,
                pipe=pipe,
            )
    return bool(added)


def _after_follow(
    *,
    uid: int,
    other_uid: int,
    now: float,
    relations: store.privacy.Relations,
    follow: store.graph.Follow,
    copy: bool,
) -> bool:
    """The rest of a follow that ``store.follow_pairs.follow_if_open`` made (one server): the copy of the
    followee's posts (``copy``: it has any) goes in the last batch, first (it copies only for this very follow,
    and publishes the home's reset event itself), then the notification, the activity and the event. One round
    trip, plus one when the copy leaves statuses for the policy to judge one by one."""
    if not follow.added:
        return False
    followed = relations.with_follow(uid, other_uid)
    prepared = None
    if copy:
        prepared = prepare_follow_copy(author=other_uid, uid=uid, score=now, relations=followed, publishes=True)
    position = None
    with store.batch.pipeline() as pipe:
        if prepared is not None:
            # Not a single-slot script: this path runs on one server only.
            position = pipe.script(*prepared.call)
        _last_batch(
            uid=uid,
            other_uid=other_uid,
            now=now,
            followed=followed,
            notify_followee=True,
            notification_id=follow.notification_id,
            pipe=pipe,
        )
    if prepared is not None and position is not None and not isinstance(pipe.replies[position], Exception):
        finish_follow_copy(author=other_uid, uid=uid, prepared=prepared, reply=pipe.replies[position])
    return True


@dataclass(frozen=True, slots=True)
class _PlainFollow:
    """The rest of a new follow prepared for the plain case: what the follow's script does (``tail``), and the
    copy that finishes from its reply."""

    tail: store.follow_pairs.FollowTail
    copy: FollowCopy | None


def _plain_follow(uid: int, other_uid: int, now: float) -> _PlainFollow:
    """What ``_after_follow`` would do after a new follow between plain accounts, for the follow's own script:
    the copy and the notification judged by the relations of that case (nothing stands between the two,
    ``uid`` now follows ``other_uid``), the day's activity and the event."""
    plain = store.privacy.Relations(
        flags={uid: frozenset(), other_uid: frozenset()},
        blocked=frozenset(),
        muted=frozenset(),
        follows=frozenset({(uid, other_uid)}),
    )
    copy = prepare_follow_copy(author=other_uid, uid=uid, score=now, relations=plain, publishes=True)
    active_key, active_ttl = active_counter(when=now)
    tail = store.follow_pairs.FollowTail(
        channel=keys.STREAM_CHANNEL,
        event=events.relations_changed(uid=uid, other=other_uid),
        active_key=active_key,
        active_ttl=active_ttl,
        notification=prepare_notification(recipient=other_uid, kind=FOLLOW, actor=uid, relations=plain),
        copy=None if copy is None else copy.call,
    )
    return _PlainFollow(tail, copy)


def _last_batch(
    *,
    uid: int,
    other_uid: int,
    now: float,
    followed: store.privacy.Relations | None,
    notify_followee: bool,
    notification_id: int | None,
    pipe: store.batch.Batch,
) -> None:
    """A new follow's notification (its feed script publishes its event; ``notification_id``: the id taken with
    the follow, if any), the day's activity and the event, on ``pipe``, which this runs: one round trip with
    whatever the caller queued before."""
    if notify_followee:
        notify(
            recipients=[other_uid],
            kind=FOLLOW,
            actor=uid,
            pipe=pipe,
            relations=followed,
            notification_ids=() if notification_id is None else (notification_id,),
        )
    record_active(uid=uid, when=now, pipe=pipe)
    # The follower's open live pages read their timelines again: what a reload shows may have changed.
    publish(events.relations_changed(uid=uid, other=other_uid), pipe=pipe)
    errors = store.batch.execute(pipe)
    if errors:
        logger.warning("A follow's events or activity count failed: %s", errors[0])


def request_follow(*, uid: int, other_uid: int, notify_followee: bool = True) -> bool:
    """Record ``uid``'s request to follow private (or remote) ``other_uid`` and tell them; True if it is new."""
    added = store.privacy.add_pair(
        keys.follow_requests(other_uid), keys.follow_requested(uid), uid, other_uid, time.time()
    )
    if added and notify_followee:
        notify(recipients=[other_uid], kind=FOLLOW_REQUEST, actor=uid)
    return added


def withdraw_follow_request(*, uid: int, other_uid: int) -> bool:
    """Withdraw ``uid``'s pending request to follow ``other_uid``; True if there was one."""
    withdrawn = store.privacy.remove_pair(keys.follow_requests(other_uid), keys.follow_requested(uid), uid, other_uid)
    if withdrawn and hooks.is_remote(other_uid):
        hooks.remote_unfollowed(uid=uid, other_uid=other_uid)
    return withdrawn


def unfollow_user(*, uid: int, other_uid: int) -> bool:
    """Make ``uid`` stop following ``other_uid``; True if they were following (book listing 8.5, fixed).

    Removes every status of the former followee that can still be in the follower's home: all of the
    followee's statuses posted since the oldest entry of that home, not only their latest 1,000. If the home
    held any, a refill from the people still followed is queued and this returns at once. One round trip on
    one server (``store.unfollows``, which also tells whether the followee is another server's account, and
    publishes the event), then the refill's enqueue when one is needed, and for a follower on another server
    federation's own removal (``hooks.follower_removed``). Raises ``CannotFollowSelf`` or
    ``UnknownUser``.
    """
    if uid == other_uid:
        raise exceptions.CannotFollowSelf()
    # The users' existence is checked by the removal itself, which changes nothing for a missing user.
    # The follower's open live pages read their timelines again at once (relations.changed means that too): on one
    # server the removal's script publishes the event after the write.
    unfollowed = store.unfollows.unfollow(
        uid, other_uid, event=(keys.STREAM_CHANNEL, events.relations_changed(uid=uid, other=other_uid))
    )
    if unfollowed is None:
        raise exceptions.UnknownUser()
    if unfollowed.refill_run is not None:
        queue.enqueue_refill(uid=uid, run=unfollowed.refill_run, cursor=None)
    # The removal answers whether each profile has a domain (on one server): a local account costs no federation
    # check, and a local follower is in no index of remote followers (``follower_removed`` would be a round trip
    # that changes nothing).
    if unfollowed.removed and unfollowed.has_domain is not False and hooks.is_remote(other_uid):
        hooks.remote_unfollowed(uid=uid, other_uid=other_uid)
    if unfollowed.removed and unfollowed.follower_has_domain is not False:
        hooks.follower_removed(uid=other_uid, follower=uid)
    if unfollowed.removed and not unfollowed.published:
        publish(events.relations_changed(uid=uid, other=other_uid))
    return unfollowed.removed

"""Deleting an account from Redis: everything of the person, by resumable passes (Mastodon's
DeleteAccountService, for data that lives in Redis).

``delete_account`` suspends the person first, so everything of theirs disappears at once for everyone, then
works through the account phase by phase, each in passes of a bounded size after a cursor, the first inline
and the rest as jobs (``queue.enqueue_erasure``):

1. ``statuses``: every post and repost, deleted as the author's delete does (out of every home, list, tag,
   search result and notification; reposts and likes of them cleaned up);
2. ``messages``: every direct message they sent (on no profile: ``messages:sent:{uid}`` lists them), deleted
   the same way, out of their conversations;
3. ``following`` and ``followers``: every follow, both ways (counters of the others stay right);
4. ``likes``: every like, taken back (like counts stay right);
5. ``lists``: the lists they own (deleted) and the lists they are in (left);
6. ``relations``: blocks, mutes and follow requests, both sides;
7. ``final``: their own keys, their login, their place in the people index and the moderation sets.

Every pass is idempotent, so a retried or repeated job changes nothing; a pass that finds nothing left moves
to the next phase. The SQL account is ``accounts``' to delete.
"""

from __future__ import annotations

import contextlib

from timelines import exceptions, hooks, keys, limits, queue, store, uris
from timelines.services.cleanup import finish_deletion
from timelines.services.direct_messages import leave_all
from timelines.services.discovery import forget_user
from timelines.services.follows import unfollow_user, withdraw_follow_request
from timelines.services.likes import remove_like
from timelines.services.lists import delete_user_list, unfollow_user_list
from timelines.services.pictures import delete_account_media
from timelines.services.privacy import reject_follow_request

PHASES = ("statuses", "messages", "following", "followers", "likes", "lists", "relations", "final")
# Deleting a post withdraws it from up to 1,000 homes inline, so a pass deletes fewer of them.
STATUSES_PER_PASS = 100


def delete_account(*, uid: int) -> None:
    """Start deleting everything ``uid`` has in Redis (the first pass now, the rest by jobs). The person is
    suspended at once, so nothing of theirs shows meanwhile. Raises ``UnknownUser``."""
    if not store.users.get_user(uid):
        raise exceptions.UnknownUser()
    # Other servers are told while the account's follows still say which ones know it.
    hooks.account_deleted(uid=uid)
    store.moderation.set_state(uid, "suspended", True)
    erase(uid=uid, phase=PHASES[0])


def erase(*, uid: int, phase: str) -> str | None:
    """Run one pass of ``phase`` for ``uid``; queue the next pass (or the next phase) as a job. Returns the
    phase the next job runs, None when the account is gone."""
    done = _PASSES[phase](uid)
    following = phase if not done else (PHASES[PHASES.index(phase) + 1] if phase != PHASES[-1] else None)
    if following is not None:
        queue.enqueue_erasure(uid=uid, phase=following)
    return following


def _statuses(uid: int) -> bool:
    ids = store.timelines.timeline_ids_page(keys.profile_timeline(uid), STATUSES_PER_PASS)
    for status_id in ids:
        outcome, fields = store.statuses.delete_status_if_owner(status_id, uid)
        if outcome == "deleted":
            finish_deletion(fields=fields)
        else:
            store.statuses.remove_from_author(uid, status_id)  # already gone: drop the leftover id
    return len(ids) < STATUSES_PER_PASS


def _messages(uid: int) -> bool:
    ids = store.messages.sent_page(uid, STATUSES_PER_PASS)
    for status_id in ids:
        outcome, fields = store.statuses.delete_status_if_owner(status_id, uid)
        if outcome == "deleted":
            finish_deletion(fields=fields)
    store.messages.forget_sent(uid, ids)  # deleted now or before: nothing left to find
    return len(ids) < STATUSES_PER_PASS


def _following(uid: int) -> bool:
    followees = store.graph.set_members(keys.following(uid), offset=0, count=limits.POSTS_PER_PASS)
    for followee in followees:
        _quietly(unfollow_user, uid=uid, other_uid=followee)
    return len(followees) < limits.POSTS_PER_PASS


def _followers(uid: int) -> bool:
    followers = store.graph.set_members(keys.followers(uid), offset=0, count=limits.POSTS_PER_PASS)
    for follower in followers:
        _quietly(unfollow_user, uid=follower, other_uid=uid)
    return len(followers) < limits.POSTS_PER_PASS


def _likes(uid: int) -> bool:
    liked = store.likes.liked_page(uid, before=None, count=limits.POSTS_PER_PASS)
    for status_id, _ in liked:
        remove_like(uid=uid, status_id=status_id)
        store.likes.remove_like(uid, status_id)
    return len(liked) < limits.POSTS_PER_PASS


def _lists(uid: int) -> bool:
    owned = [list_id for list_id, _ in store.graph.set_entries(keys.lists_of(uid))][: limits.POSTS_PER_PASS]
    for list_id in owned:
        _quietly(delete_user_list, uid=uid, list_id=list_id)
        store.graph.graph_remove(keys.lists_of(uid), keys.user(uid), list_id, "lists")
    memberships = [list_id for list_id, _ in store.graph.set_entries(keys.listed_in(uid))][: limits.POSTS_PER_PASS]
    owners = store.lists.list_owners(memberships)
    for list_id, owner in zip(memberships, owners, strict=True):
        if owner is not None:
            _quietly(unfollow_user_list, uid=owner, other_uid=uid, list_id=list_id)
        store.graph.graph_remove(keys.listed_in(uid), keys.user(uid), list_id, "listed")
    return len(owned) < limits.POSTS_PER_PASS and len(memberships) < limits.POSTS_PER_PASS


def _relations(uid: int) -> bool:
    size = limits.POSTS_PER_PASS
    # (the person's side, the other side) of each relation: blocks, mutes, both directions.
    for own, theirs in ((keys.blocks, keys.blocked_by), (keys.mutes, keys.muted_by)):
        for other in store.privacy.members(own(uid), count=size):
            store.privacy.remove_pair(own(uid), theirs(other), other, uid)
        for other in store.privacy.members(theirs(uid), count=size):
            store.privacy.remove_pair(own(other), theirs(uid), uid, other)
    for requester in store.privacy.members(keys.follow_requests(uid), count=size):
        reject_follow_request(uid=uid, requester_uid=requester)
    for target in store.privacy.members(keys.follow_requested(uid), count=size):
        withdraw_follow_request(uid=uid, other_uid=target)
    left = (keys.blocks, keys.blocked_by, keys.mutes, keys.muted_by, keys.follow_requests, keys.follow_requested)
    return not any(store.privacy.size(key(uid)) for key in left)


def _final(uid: int) -> bool:
    fields = store.users.get_user(uid)
    if fields.get("login"):
        forget_user(uid=uid, login=fields["login"], name=fields.get("name", ""))
        store.users.release_login(uris.login_claim(fields["login"], fields.get("domain")), uid)
    store.graph.delete_keys(*_own_keys(uid))
    leave_all(uid=uid)
    store.moderation.set_state(uid, "suspended", False)
    store.moderation.set_state(uid, "limited", False)
    # Their last visit goes too, and an idle-dropped home stops being counted (services.idle).
    if store.idle.is_dropped(keys.user(uid)):
        store.idle.count_dropped(-1)
    store.idle.forget_user(uid)
    store.pulled.forget_author(uid)
    store.followed_tags.forget_person(uid)
    store.users.delete_user(uid)
    delete_account_media(uid=uid)
    return True


def _own_keys(uid: int) -> list[str]:
    """Every key of the person's own slot (``{uid}``) that may hold anything after the phases above."""
    return [
        keys.profile_timeline(uid),
        keys.profile_held(uid),
        keys.home_timeline(uid),
        keys.home_marker(uid),
        keys.home_reposts(uid),
        keys.user_reposts(uid),
        keys.likes_of(uid),
        keys.bookmarks_of(uid),
        keys.notifications(uid),
        keys.notifications_read(uid),
        keys.notifications_unread(uid),
        keys.refill_run(keys.home_timeline(uid)),
        keys.pulled_posts(uid),
    ]


def _quietly(service: object, **kwargs: int) -> None:
    """Run one undo of the passes; an account or list that is already gone has nothing left to undo."""
    with contextlib.suppress(
        exceptions.UnknownUser, exceptions.UnknownList, exceptions.NotListOwner, exceptions.CannotFollowSelf
    ):
        service(**kwargs)  # type: ignore[operator]


_PASSES = {
    "statuses": _statuses,
    "messages": _messages,
    "following": _following,
    "followers": _followers,
    "likes": _likes,
    "lists": _lists,
    "relations": _relations,
    "final": _final,
}

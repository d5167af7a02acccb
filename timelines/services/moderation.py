"""Moderating the Redis-backed network (Mastodon's account actions): suspending, limiting, and removing a post.

Suspension and limits are flags the per-recipient policy reads (``timelines.privacy``): nothing is deleted,
so undoing them brings everything back. Each change publishes a typed event (``user.suspended``,
``user.unsuspended``, ``user.limited``, ``user.unlimited``) so that the streams drop a suspended author's
posts at once and open live homes take them off the page. Who did it and why is recorded by the caller (the
admin's audit log, in ``accounts``).

- ``suspend_user``: the person's posts, reposts, likes and replies disappear from every timeline, thread, tag,
  search result, stream and notification for everyone else. (Logging in and sessions are ``accounts``'.)
- ``unsuspend_user``: back as they were; the homes of their followers are refilled, which brings back what a
  delivery skipped meanwhile (reposts of their posts, for one).
- ``limit_user`` / ``unlimit_user``: a limited person's posts reach their existing followers only; they are
  kept out of tag timelines, search, the public streams and "Who to follow".
- ``remove_status``: the post is deleted everywhere as its author's delete does, and the author is told why.
"""

from __future__ import annotations

from timelines import events, exceptions, keys, limits, queue, store
from timelines.services.cleanup import finish_deletion
from timelines.services.notifications import MODERATION, MODERATORS, notify
from timelines.services.publishing import publish
from timelines.services.refill import request_refill


def _require(uid: int) -> None:
    if not store.users.get_user(uid):
        raise exceptions.UnknownUser()


def suspend_user(*, uid: int) -> bool:
    """Suspend ``uid``; True if they were not suspended. Raises ``UnknownUser``."""
    _require(uid)
    changed = store.moderation.set_state(uid, "suspended", True)
    publish(events.user_changed(events.USER_SUSPENDED, uid=uid))
    return changed


def unsuspend_user(*, uid: int) -> bool:
    """Lift ``uid``'s suspension and refill their followers' homes; True if they were suspended."""
    _require(uid)
    changed = store.moderation.set_state(uid, "suspended", False)
    publish(events.user_changed(events.USER_UNSUSPENDED, uid=uid))
    if changed:
        refill_followers(uid=uid)
    return changed


def refill_followers(*, uid: int, cursor: tuple[float, str] | None = None) -> int:
    """Queue a refill of the homes of the next ``POSTS_PER_PASS`` followers of ``uid`` after ``cursor``, and
    the next pass as a job. Returns how many were queued."""
    followers = store.graph.members_after(keys.followers(uid), cursor, limits.POSTS_PER_PASS)
    for follower, _ in followers:
        request_refill(uid=int(follower))
    if len(followers) >= limits.POSTS_PER_PASS:
        last_member, last_score = followers[-1]
        queue.enqueue_refill_followers(uid=uid, cursor=(last_score, last_member))
    return len(followers)


def limit_user(*, uid: int) -> bool:
    """Limit ``uid``: their posts reach their existing followers only. True if they were not limited."""
    _require(uid)
    changed = store.moderation.set_state(uid, "limited", True)
    publish(events.user_changed(events.USER_LIMITED, uid=uid))
    return changed


def unlimit_user(*, uid: int) -> bool:
    _require(uid)
    changed = store.moderation.set_state(uid, "limited", False)
    publish(events.user_changed(events.USER_UNLIMITED, uid=uid))
    return changed


def remove_status(*, status_id: int, reason: str) -> int:
    """Delete ``status_id`` for the moderators, as its author's delete would, and tell the author why
    ("Your post was removed by the moderators: <reason>"). Returns the author's uid. Raises
    ``StatusNotFound``."""
    fields = store.statuses.get_status(status_id)
    if not fields:
        raise exceptions.StatusNotFound()
    author = int(fields["uid"])
    outcome, deleted = store.statuses.delete_status_if_owner(status_id, author)
    if outcome != "deleted":
        raise exceptions.StatusNotFound()
    finish_deletion(fields=deleted)
    notify(recipients=[author], kind=MODERATION, actor=MODERATORS, text=reason)
    return author

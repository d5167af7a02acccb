"""Following and unfollowing (book 8.3, fixed): the two sides of the graph, then the follower's home."""

from __future__ import annotations

import time

from timelines import exceptions, keys, store
from timelines.services.notifications import FOLLOW, notify
from timelines.services.refill import copy_author, remove_author
from timelines.services.users import require_users


def _check(uid: int, other_uid: int) -> None:
    if uid == other_uid:
        raise exceptions.CannotFollowSelf()
    require_users(uid, other_uid)


def follow_user(*, uid: int, other_uid: int) -> bool:
    """Make ``uid`` follow ``other_uid``; True if they did not already (book listing 8.4, fixed).

    Each side (following:{uid} with its counter, followers:{other} with its counter) is one atomic step that
    sets the counter from the set's size, so racing follows cannot double-count. The followee's side is
    written even when nothing changed, which completes a follow interrupted between the two steps. A new
    follow copies the followee's latest ``HOME_TIMELINE_SIZE`` statuses into the follower's home (trimmed),
    as far as the policy lets the follower receive them, and the followee is notified. Raises
    ``CannotFollowSelf`` or ``UnknownUser``.
    """
    _check(uid, other_uid)
    now = time.time()
    added = store.graph.graph_add(keys.following(uid), keys.user(uid), other_uid, now, "following")
    if added < 0:
        raise exceptions.UnknownUser()
    if store.graph.graph_add(keys.followers(other_uid), keys.user(other_uid), uid, now, "followers") < 0:
        raise exceptions.UnknownUser()
    if added:
        copy_author(author=other_uid, uid=uid)
        notify(recipients=[other_uid], kind=FOLLOW, actor=uid)
    return bool(added)


def unfollow_user(*, uid: int, other_uid: int) -> bool:
    """Make ``uid`` stop following ``other_uid``; True if they were following (book listing 8.5, fixed).

    Removes every status of the former followee that can still be in the follower's home: all of the
    followee's statuses posted since the oldest entry of that home, not only their latest 1,000. If that made
    room, a refill from the people still followed is queued (``request_refill``) and this returns at
    once. Raises ``CannotFollowSelf`` or ``UnknownUser``.
    """
    _check(uid, other_uid)
    removed = store.graph.graph_remove(keys.following(uid), keys.user(uid), other_uid, "following")
    store.graph.graph_remove(keys.followers(other_uid), keys.user(other_uid), uid, "followers")
    if removed:
        remove_author(author=other_uid, uid=uid)
    return bool(removed)

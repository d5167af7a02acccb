"""Likes (Mastodon's favourites): idempotent, with an exact ``like_count`` on the status and a list of what
each user liked, newest like first.

The status's side is written first (``likers:{S}`` with the counter, refused once the status is gone), then
the user's (``likes:{U}``); unliking undoes them in the same order. Each side is one single-slot step, so a
repeated like changes nothing and a retried one completes.
"""

from __future__ import annotations

import time

from timelines import exceptions, hooks, store
from timelines.services.activity import record_active
from timelines.services.notifications import LIKE, notify
from timelines.services.users import require_user
from timelines.services.visibility import status_to_act_on


def like_status(*, uid: int, status_id: int) -> bool:
    """Like ``status_id`` (the original, for a repost) as ``uid``; True if it was not liked yet. Notifies the
    author. Raises ``UnknownUser``, or ``StatusNotFound`` when the post is missing or ``uid`` may not see it."""
    fields = status_to_act_on(uid=uid, status_id=status_id)
    require_user(uid)
    liked_id = int(fields["id"])
    now = time.time()
    added = store.likes.add_liker(liked_id, uid, now)
    if added < 0:
        raise exceptions.StatusNotFound()
    store.likes.add_like(uid, liked_id, now)
    if added:
        notify(recipients=[int(fields["uid"])], kind=LIKE, actor=uid, status_id=liked_id)
        record_active(uid=uid, when=now)
        hooks.status_liked(uid=uid, fields=fields, liked=True)
    return bool(added)


def unlike_status(*, uid: int, status_id: int) -> bool:
    """Take back ``uid``'s like of ``status_id`` (the original, for a repost); True if there was one. Raises
    ``StatusNotFound`` when the post is missing or ``uid`` may not see it, as ``like_status`` does, so both
    answer alike for a hidden post."""
    fields = status_to_act_on(uid=uid, status_id=status_id)
    return remove_like(uid=uid, status_id=int(fields["id"]))


def remove_like(*, uid: int, status_id: int) -> bool:
    """Take back ``uid``'s like of ``status_id`` whether or not the post is still there or visible to them (an
    account's erasure); True if there was one."""
    fields = store.statuses.get_status(status_id) if isinstance(status_id, int) and status_id > 0 else {}
    liked_id = int(fields["repost_of"]) if fields.get("repost_of") else status_id
    removed = store.likes.remove_liker(liked_id, uid)
    store.likes.remove_like(uid, liked_id)
    if removed and fields:
        original = store.statuses.get_status(liked_id) if fields.get("repost_of") else fields
        hooks.status_liked(uid=uid, fields=original, liked=False)
    return bool(removed)

"""Privacy and safety (Mastodon's locked accounts, blocks and mutes): choosing who reads you and shutting out
whom you want to avoid. The decisions themselves are ``timelines.privacy``'s; these services keep the state
it reads.

- ``set_private``: a private account's new posts reach approved followers only; following it becomes a
  request. Turning private keeps existing followers; turning public approves every pending request.
- Follow requests: ``follow_user`` records one for a private account; the owner approves (the follow is made,
  recent posts copied into the new follower's home, the requester notified) or rejects; the requester may
  withdraw it.
- ``block_user``: removes follows both ways and pending requests both ways; neither can follow the other
  while it lasts. The blocked person is not told.
- ``mute_user``: hides the muted person from the muter's feeds and notifications; ``unmute_user`` refills the
  home with their recent posts. The muted person is not told.
"""

from __future__ import annotations

import time

from timelines import events, exceptions, hooks, keys, limits, store
from timelines.services.follows import make_follow, unfollow_user, withdraw_follow_request
from timelines.services.notifications import FOLLOW_ACCEPTED, notify
from timelines.services.publishing import publish
from timelines.services.refill import request_refill
from timelines.services.users import require_users


def _check(uid: int, other_uid: int) -> None:
    if uid == other_uid:
        raise exceptions.CannotTargetSelf()
    require_users(uid, other_uid)


def set_private(*, uid: int, private: bool) -> None:
    """Make ``uid``'s account private or public. Turning it public approves every pending request (in passes
    of ``POSTS_PER_PASS``). Raises ``UnknownUser``."""
    if not store.users.get_user(uid):
        raise exceptions.UnknownUser()
    store.privacy.set_flag(uid, "private", private)
    hooks.profile_changed(uid=uid)  # manuallyApprovesFollowers, for the servers that follow them
    if not private:
        while requesters := store.privacy.members(keys.follow_requests(uid), count=limits.POSTS_PER_PASS):
            for requester in requesters:
                approve_follow_request(uid=uid, requester_uid=requester)


def is_private(uid: int) -> bool:
    return bool(store.users.get_user(uid).get("private"))


def approve_follow_request(*, uid: int, requester_uid: int) -> bool:
    """Approve ``requester_uid``'s request to follow ``uid``: the follow is made (their home gets ``uid``'s
    recent posts) and they are notified. False when there was no such request."""
    if not store.privacy.is_member(keys.follow_requests(uid), requester_uid):
        return False
    try:
        make_follow(uid=requester_uid, other_uid=uid, notify_followee=False)
    except exceptions.UnknownUser:
        reject_follow_request(uid=uid, requester_uid=requester_uid)  # the requester's account is gone
        return False
    store.privacy.remove_pair(keys.follow_requests(uid), keys.follow_requested(requester_uid), requester_uid, uid)
    notify(recipients=[requester_uid], kind=FOLLOW_ACCEPTED, actor=uid)
    hooks.follow_request_answered(uid=uid, requester_uid=requester_uid, approved=True)
    return True


def reject_follow_request(*, uid: int, requester_uid: int) -> bool:
    """Reject ``requester_uid``'s request to follow ``uid``; False when there was none."""
    rejected = store.privacy.remove_pair(
        keys.follow_requests(uid), keys.follow_requested(requester_uid), requester_uid, uid
    )
    if rejected:
        hooks.follow_request_answered(uid=uid, requester_uid=requester_uid, approved=False)
    return rejected


def is_blocked_between(uid: int, other_uid: int) -> bool:
    """Whether either of the two blocks the other."""
    relations = store.privacy.relations([uid], [other_uid])
    return bool(relations.blocked)


def block_user(*, uid: int, other_uid: int) -> bool:
    """Block ``other_uid`` as ``uid``; True if it is new. Follows and pending requests between them go, both
    ways. Raises ``CannotTargetSelf`` or ``UnknownUser``."""
    _check(uid, other_uid)
    added = store.privacy.add_pair(keys.blocks(uid), keys.blocked_by(other_uid), other_uid, uid, time.time())
    for follower, followee in ((uid, other_uid), (other_uid, uid)):
        unfollow_user(uid=follower, other_uid=followee)
        withdraw_follow_request(uid=follower, other_uid=followee)
    if added:
        # Both people's open live pages stop showing each other at once.
        publish(events.relations_changed(uid=uid, other=other_uid))
        publish(events.relations_changed(uid=other_uid, other=uid))
        if hooks.is_remote(other_uid):
            hooks.remote_blocked(uid=uid, other_uid=other_uid, blocked=True)
    return added


def unblock_user(*, uid: int, other_uid: int) -> bool:
    """Lift ``uid``'s block of ``other_uid``; True if there was one. Follows are not restored."""
    _check(uid, other_uid)
    removed = store.privacy.remove_pair(keys.blocks(uid), keys.blocked_by(other_uid), other_uid, uid)
    if removed:
        publish(events.relations_changed(uid=uid, other=other_uid))
        publish(events.relations_changed(uid=other_uid, other=uid))
        if hooks.is_remote(other_uid):
            hooks.remote_blocked(uid=uid, other_uid=other_uid, blocked=False)
    return removed


def mute_user(*, uid: int, other_uid: int) -> bool:
    """Mute ``other_uid`` as ``uid``; True if it is new. Their posts and reposts leave ``uid``'s feeds and
    notifications at once (the pages ask the policy); nothing else changes."""
    _check(uid, other_uid)
    added = store.privacy.add_pair(keys.mutes(uid), keys.muted_by(other_uid), other_uid, uid, time.time())
    if added:
        publish(events.relations_changed(uid=uid, other=other_uid))  # the muter's open live pages, at once
    return added


def unmute_user(*, uid: int, other_uid: int) -> bool:
    """Unmute ``other_uid``; True if they were muted. A refill brings their recent posts back into home."""
    _check(uid, other_uid)
    removed = store.privacy.remove_pair(keys.mutes(uid), keys.muted_by(other_uid), other_uid, uid)
    if removed:
        request_refill(uid=uid)
        publish(events.relations_changed(uid=uid, other=other_uid))
    return removed

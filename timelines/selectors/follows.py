"""Reading the follower graph: followers and following lists, and who a viewer follows."""

from __future__ import annotations

from timelines import keys, limits, store
from timelines.records import User
from timelines.selectors.timelines import clamp_count
from timelines.selectors.users import get_user, get_users


def _follow_list(key: str, uid: int, page: int, count: int) -> list[User]:
    if page < 1:
        raise ValueError("page starts at 1")
    count = clamp_count(count)
    uids = store.graph.set_members(key, offset=(page - 1) * count, count=count)
    if not uids:
        get_user(uid=uid)  # an empty list is fine, an unknown user is not
    return get_users(uids=uids)


def get_followers(*, uid: int, page: int = 1, count: int = limits.DEFAULT_PAGE_SIZE) -> list[User]:
    """The users following ``uid``, most recent first. Raises ``UnknownUser``."""
    return _follow_list(keys.followers(uid), uid, page, count)


def get_following(*, uid: int, page: int = 1, count: int = limits.DEFAULT_PAGE_SIZE) -> list[User]:
    """The users ``uid`` follows, most recent first. Raises ``UnknownUser``."""
    return _follow_list(keys.following(uid), uid, page, count)


def is_following(*, uid: int, other_uid: int) -> bool:
    return store.graph.memberships(keys.following(uid), [other_uid]) == [True]


def get_following_flags(*, uid: int, other_uids: list[int]) -> dict[int, bool]:
    """For each of ``other_uids``, whether ``uid`` follows them. One round trip."""
    return dict(zip(other_uids, store.graph.memberships(keys.following(uid), other_uids), strict=True))


def get_following_ids(*, uid: int, limit: int = limits.MAX_PAGE_SIZE) -> list[int]:
    """The uids ``uid`` follows, most recent first, at most ``limit`` of them. One round trip."""
    return store.graph.set_members(keys.following(uid), offset=0, count=max(1, int(limit)))


def get_familiar_followers(*, viewer_uid: int, uid: int, count: int = limits.DEFAULT_PAGE_SIZE) -> list[User]:
    """The people ``viewer_uid`` follows who follow ``uid`` ("Followed by people you follow"), most recently
    followed by the viewer first, at most ``count``. Two round trips: the viewer's latest
    ``FAMILIAR_FOLLOWERS_CHECKED`` followees, then which of them are in ``uid``'s followers (one ``ZMSCORE``);
    people the viewer followed before those are not looked at. Empty for the viewer themselves."""
    if viewer_uid == uid:
        return []
    followees = store.graph.set_members(keys.following(viewer_uid), offset=0, count=limits.FAMILIAR_FOLLOWERS_CHECKED)
    if not followees:
        return []
    inside = store.graph.memberships(keys.followers(uid), followees)
    familiar = [followee for followee, member in zip(followees, inside, strict=True) if member and followee != uid]
    return get_users(uids=familiar[: clamp_count(count)])

"""Reading privacy and safety: pending follow requests, whom someone blocks or mutes, and how a viewer stands
with a profile (the buttons and notices it shows)."""

from __future__ import annotations

from dataclasses import dataclass

from timelines import keys, limits, store
from timelines.records import User
from timelines.selectors.users import get_users


@dataclass(frozen=True, slots=True)
class Relationship:
    """How ``viewer`` stands with another account: what its profile shows them."""

    following: bool = False
    requested: bool = False  # a follow request is pending
    blocking: bool = False  # the viewer blocks them
    blocked_by: bool = False  # they block the viewer ("You are blocked")
    muting: bool = False
    private: bool = False  # the account is private
    followed_by: bool = False  # they follow the viewer


def get_relationship(*, viewer: int | None, other: int) -> Relationship:
    """How ``viewer`` (None: anonymous) stands with ``other``. One round trip."""
    if viewer is None or viewer == other:
        relations = store.privacy.relations([], [other])
        return Relationship(private="private" in relations.flags.get(other, frozenset()))
    relations = store.privacy.relations([viewer], [other])
    extra = store.privacy.viewer_relations(viewer, other)
    return Relationship(
        following=(viewer, other) in relations.follows,
        requested=extra["requested"],
        blocking=extra["blocking"],
        blocked_by=extra["blocked_by"],
        muting=(viewer, other) in relations.muted,
        private="private" in relations.flags.get(other, frozenset()),
        followed_by=extra["followed_by"],
    )


def _people(key: str, count: int) -> list[User]:
    return get_users(uids=store.privacy.members(key, count=max(1, min(count, limits.MAX_PAGE_SIZE))))


def get_follow_requests(*, uid: int, count: int = limits.MAX_PAGE_SIZE) -> list[User]:
    """The people waiting for ``uid`` to approve their follow request, newest first."""
    return _people(keys.follow_requests(uid), count)


def get_follow_request_count(*, uid: int) -> int:
    return store.privacy.size(keys.follow_requests(uid))


def get_related_ids(*, uid: int, limit: int = limits.MAX_LIST_MEMBERS) -> frozenset[int]:
    """Everyone ``uid`` blocks, is blocked by or mutes (at most ``limit`` of each, the newest): the authors a
    stream must know the policy's relations with besides those it follows, since a repost by someone followed
    carries a post by anyone. One round trip."""
    return frozenset(store.privacy.related(uid, count=limit))


def get_blocked_users(*, uid: int, count: int = limits.MAX_PAGE_SIZE) -> list[User]:
    """Whom ``uid`` blocks, most recent first."""
    return _people(keys.blocks(uid), count)


def get_muted_users(*, uid: int, count: int = limits.MAX_PAGE_SIZE) -> list[User]:
    """Whom ``uid`` mutes, most recent first."""
    return _people(keys.mutes(uid), count)

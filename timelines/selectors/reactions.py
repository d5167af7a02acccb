"""Reading who reacted to a post: the people who liked it and the people who reposted it, most recent first
(the client API's ``favourited_by`` and ``reblogged_by``). Suspended accounts are left out."""

from __future__ import annotations

from timelines import limits, store
from timelines.records import User
from timelines.selectors.timelines import clamp_count
from timelines.selectors.users import get_users


def get_likers(*, status_id: int, count: int = limits.DEFAULT_PAGE_SIZE) -> list[User]:
    """Who liked ``status_id``, most recent like first. Two round trips. The caller checks that its viewer may
    see the post."""
    uids = store.likes.likers(status_id, count=clamp_count(count))
    return [user for user in get_users(uids=uids) if not user.suspended]


def get_reposters(*, status_id: int, count: int = limits.DEFAULT_PAGE_SIZE) -> list[User]:
    """Who reposted ``status_id``, most recent repost first. Two round trips. The caller checks that its viewer
    may see the post."""
    pairs = store.reposts.reposters(status_id)
    uids = [uid for uid, _ in sorted(pairs, key=lambda pair: -pair[1])][: clamp_count(count)]
    return [user for user in get_users(uids=uids) if not user.suspended]

"""Reads of followed tags (``services.followed_tags`` writes them): a person's list, private to them, and whether
they follow given tags (the ``following`` of Mastodon's Tag entity, the **Follow** button of a tag page)."""

from __future__ import annotations

from dataclasses import dataclass

from timelines import store


@dataclass(frozen=True, slots=True)
class FollowedTag:
    """A tag ``uid`` follows, and when they followed it (Unix seconds: the cursor of their list)."""

    name: str
    followed_at: float


def get_followed_tags(
    *, uid: int, count: int, before: float | None = None, after: float | None = None, oldest_first: bool = False
) -> list[FollowedTag]:
    """The tags ``uid`` follows, most recent follow first, followed strictly between ``after`` and ``before``;
    with ``oldest_first`` the oldest such follows (a ``min_id`` page), still returned newest first."""
    if oldest_first:
        rows = store.followed_tags.followed_page(uid, after=after, before=before, count=count)[::-1]
    else:
        rows = store.followed_tags.followed_newest(uid, before=before, after=after, count=count)
    return [FollowedTag(name, float(when)) for name, when in rows]


def follows_tags(*, uid: int | None, tags: list[str]) -> list[bool]:
    """Whether ``uid`` (None: nobody) follows each of ``tags`` (normalised), in order. One read."""
    if uid is None:
        return [False] * len(tags)
    return store.followed_tags.follows_tags(uid, tags)

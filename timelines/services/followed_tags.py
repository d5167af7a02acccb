"""Following tags (issue 20, Mastodon's followed hashtags): a person follows a tag, and the public posts that use it
reach their home from then on (``services.tag_delivery``), as a followed account's posts do.

Nothing already posted is copied into the home (Mastodon copies nothing either), and unfollowing a tag leaves the
posts it brought where they are. The list of followed tags is private to its person
(``selectors.followed_tags`` reads it).
"""

from __future__ import annotations

import time

from timelines import exceptions, limits, store, text


def clean_tag(name: str) -> str:
    """``name`` (with or without ``#``) as stored: normalised, or ``InvalidTag``."""
    normalized = text.normalize_tag(str(name).removeprefix("#"))
    if not text.is_tag(normalized):
        raise exceptions.InvalidTag()
    return normalized


def follow_tag(*, uid: int, tag: str) -> bool:
    """Follow ``tag`` for ``uid``; True when it was not followed yet. Idempotent; a repeat also completes a follow
    interrupted between its two single-slot steps. Raises ``InvalidTag`` or ``TooManyFollowedTags``
    (``MAX_FOLLOWED_TAGS``). Two round trips."""
    name = clean_tag(tag)
    # Whole microseconds, so a page's cursor (the API's ids) gives back the very score.
    when = round(time.time() * 1_000_000) / 1_000_000
    added = store.followed_tags.follow_tag(uid, name, when, limit=limits.MAX_FOLLOWED_TAGS)
    if added < 0:
        raise exceptions.TooManyFollowedTags()
    return added == 1


def unfollow_tag(*, uid: int, tag: str) -> bool:
    """Stop following ``tag``; True when it was followed. Idempotent. Raises ``InvalidTag``."""
    return store.followed_tags.unfollow_tag(uid, clean_tag(tag))

"""Keys of followed tags (issue 20: Mastodon's followed hashtags)::

    followed:tags:{42}       ZSET  tag -> when uid 42 followed it (Unix seconds); the person's followed tags, oldest
                             first; at most MAX_FOLLOWED_TAGS
                             > ZRANGE followed:tags:{42} 0 -1 WITHSCORES
                             redis 1763800000.5  django 1763800100.1
    tag:followers:{redis}    ZSET  uid -> when they followed #redis; the audience of the tag's public posts,
                             walked by (score, member) cursors like followers:{uid}
                             > ZRANGE tag:followers:{redis} 0 -1 WITHSCORES
                             42 1763800000.5

The person's set shares the slot of their other keys ({42}), so "does 42 follow author A or tag T?" is one
single-slot read; the tag's set shares the slot of its timeline tag:{redis}. A follow writes both, two idempotent
single-slot steps, the person's first (the audience is rebuilt from it by a re-run).
"""

from __future__ import annotations


def followed_tags(uid: int) -> str:
    """The tags ``uid`` follows."""
    return f"followed:tags:{{{uid}}}"


def tag_followers(tag: str) -> str:
    """The people who follow ``tag`` (already normalised: ``text.normalize_tag``)."""
    return f"tag:followers:{{{tag}}}"

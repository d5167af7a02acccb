"""Keys of tags and trending (issue 10)::

    tag:{redis}              ZSET  status id -> posted; the public posts tagged #redis (lowercased), newest
                             TAG_TIMELINE_SIZE kept (trimmed on every insert). Ordered by id as well as by time,
                             like every timeline, so ``max_id`` cursors work on it (store/scripts/timeline_page.lua)
                             > ZREVRANGE tag:{redis} 0 1 WITHSCORES
                             9001 1763800000.5  8954 1763799950.7
    timeline:{local}         ZSET  status id -> posted; every public post of the site (no reposts), newest
                             LOCAL_TIMELINE_SIZE kept, trimmed on every insert: the client API's public (local)
                             timeline, written and read like a tag's
                             > ZREVRANGE timeline:{local} 0 0 WITHSCORES
                             9001 1763800000.5
    trending:{tags}:490000   ZSET  tag -> uses of it in public posts during hour 490000 (Unix time // 3600);
                             expires TRENDING_BUCKET_TTL_SECONDS after its last write. Every bucket shares the
                             hash tag {tags}, so the union of the last 24 is one single-slot command
                             > ZUNION 24 trending:{tags}:490000 trending:{tags}:489999 ... WITHSCORES
                             django 3  redis 7

The tag name is the hash tag of its timeline, so each tag's timeline is one slot of its own; a post with three
tags writes three slots, one single-key script each.
"""

from __future__ import annotations

TRENDING_HASH_TAG = "{tags}"
LOCAL_TIMELINE = "timeline:{local}"


def tag_timeline(tag: str) -> str:
    """The public timeline of ``tag`` (already normalised: ``text.normalize_tag``)."""
    return f"tag:{{{tag}}}"


def trending_hour(timestamp: float) -> int:
    """The trending bucket a use at ``timestamp`` (Unix seconds) counts in."""
    return int(timestamp // 3600)


def trending_bucket(hour: int) -> str:
    """Uses of each tag during ``hour`` (Unix time // 3600)."""
    return f"trending:{TRENDING_HASH_TAG}:{hour}"

"""What one viewer did to given statuses: liked, reposted, bookmarked (``likes:{uid}``, ``user:reposts:{uid}``,
``bookmarks:{uid}``). Three commands on the viewer's slot, one pipelined round trip. See ``timelines.store`` for
the rules every store module follows."""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys


def viewer_flags(uid: int, status_ids: Sequence[int]) -> list[tuple[bool, bool, bool]]:
    """(liked, reposted, bookmarked) by ``uid`` of each of ``status_ids``, in order."""
    if not status_ids:
        return []
    ids = [str(status_id) for status_id in status_ids]
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.zmscore(keys.likes_of(uid), ids)
        pipe.hmget(keys.user_reposts(uid), ids)
        pipe.zmscore(keys.bookmarks_of(uid), ids)
        liked, reposted, bookmarked = pipe.execute()
    return [
        (like is not None, repost is not None, bookmark is not None)
        for like, repost, bookmark in zip(liked, reposted, bookmarked, strict=True)
    ]

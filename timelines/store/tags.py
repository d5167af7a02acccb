"""Tags in Redis (``keys.tags``): the public tag timelines, the site's local timeline (every public post), the
hourly trending buckets and the index of known tags for prefix search (``keys.SEARCH_TAGS``).

See ``timelines.store`` for the rules every store module follows. Each tag's timeline is a slot of its own
and every trending bucket shares the slot ``{tags}``, so a post's tags are written by a pipeline of
single-slot steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from socialsite.redis_client import get_redis
from timelines import keys, limits
from timelines.store.lua import Call, run_many
from timelines.store.lua import script as _script
from timelines.store.timelines import timeline_page


def index_tags(tags: Sequence[str], status_id: int, posted: float, hour: int) -> None:
    """Add a public status to the timeline of each of ``tags`` (trimmed to ``TAG_TIMELINE_SIZE``), count one use
    of each in ``hour``'s trending bucket, and make each known to prefix search. One pipelined round trip of
    single-slot steps; re-running it adds nothing but a second count."""
    if not tags:
        return
    # One script per tag key: ZADD and the trim on every insert (book 8.4), one slot each.
    calls: list[Call] = [
        ("push_to_timelines", [keys.tag_timeline(tag)], [limits.TAG_TIMELINE_SIZE, repr(posted), status_id])
        for tag in tags
    ]
    calls.append(("count_tag_uses", [keys.trending_bucket(hour)], [1, limits.TRENDING_BUCKET_TTL_SECONDS, *tags]))
    run_many(calls)
    # NX: a tag keeps its place; all scores are 0 so the set orders tags by their bytes (ZRANGEBYLEX).
    get_redis().zadd(keys.SEARCH_TAGS, dict.fromkeys(tags, 0), nx=True)


def remove_from_tag_timelines(tags: Sequence[str], status_id: int) -> list[str]:
    """Remove a status from the timelines of ``tags``; returns the tags whose timeline held it. One pipelined
    round trip; idempotent (ZREM)."""
    if not tags:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for tag in tags:
            pipe.zrem(keys.tag_timeline(tag), status_id)
        removed = pipe.execute()
    return [tag for tag, was_there in zip(tags, removed, strict=True) if was_there]


def uncount_uses(tags: Sequence[str], hour: int) -> int:
    """Take back one use of each of ``tags`` in ``hour``'s bucket, if that bucket still exists (one script)."""
    if not tags:
        return 0
    args = [-1, limits.TRENDING_BUCKET_TTL_SECONDS, *tags]
    return int(_script("count_tag_uses")(keys=[keys.trending_bucket(hour)], args=args))


def tag_page(tag: str, *, max_id: int, count: int) -> list[int]:
    """Status ids of one page of a tag's timeline, newest first, below ``max_id`` (0: the newest). One round
    trip, two for an empty page (the timeline's own key stands in for its owner: no posts, no owner)."""
    key = keys.tag_timeline(tag)
    return timeline_page(key, key, max_id=max_id, count=count) or []


def index_local(status_id: int, posted: float, *, pipe: Any = None) -> None:
    """Add a public status to the local timeline (trimmed to ``LOCAL_TIMELINE_SIZE``). One script, queued on
    ``pipe`` (a ``store.batch``) when given; idempotent."""
    args: list[object] = [limits.LOCAL_TIMELINE_SIZE, repr(posted), status_id]
    if pipe is not None:
        pipe.script("push_to_timelines", [keys.LOCAL_TIMELINE], args)
        return
    run_many([("push_to_timelines", [keys.LOCAL_TIMELINE], args)])


def remove_from_local(status_id: int) -> bool:
    """Take a status out of the local timeline; True if it was there. Idempotent (ZREM)."""
    return bool(get_redis().zrem(keys.LOCAL_TIMELINE, status_id))


def local_page(*, max_id: int, count: int) -> list[int]:
    """Status ids of one page of the local timeline, newest first, below ``max_id`` (0: the newest)."""
    return timeline_page(keys.LOCAL_TIMELINE, keys.LOCAL_TIMELINE, max_id=max_id, count=count) or []


def trending(hours: Sequence[int]) -> list[tuple[str, float]]:
    """(tag, uses) summed over the buckets of ``hours``, in no useful order. One ZUNION on the slot ``{tags}``:
    O(tags used in those hours), and a read, so a page showing it writes nothing."""
    return get_redis().zunion([keys.trending_bucket(hour) for hour in hours], withscores=True)

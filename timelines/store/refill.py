"""Run numbers of timeline refills (``keys.refill``): a newer run supersedes an older one.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from socialsite.redis_client import get_redis
from timelines import keys, limits


def start_refill_run(timeline_key: str) -> int:
    """Number a new refill run of a timeline; older runs see a newer number and stop."""
    key = keys.refill_run(timeline_key)
    with get_redis().pipeline(transaction=True) as pipe:
        pipe.incr(key)
        # A run finishes in seconds; the number only needs to outlive it.
        pipe.expire(key, limits.REFILL_RUN_TTL_SECONDS)
        run, _ = pipe.execute()
    return int(run)


def current_refill_run(timeline_key: str) -> int | None:
    value = get_redis().get(keys.refill_run(timeline_key))
    return int(value) if value is not None else None

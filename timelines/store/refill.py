"""Run numbers of timeline refills (``keys.refill``): a newer run supersedes an older one.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

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


def remove_and_start_refill(timeline_key: str, status_ids: Sequence[int | str]) -> tuple[int, int]:
    """Remove ``status_ids`` from a timeline and number a new refill run of it (``start_refill_run``), in one
    transaction: (how many it held, the run number). Plain commands, not a script: a script's ZREM of 1,000
    arguments cost a third more than the command's. The caller must start that run even when nothing was
    removed, since the new number stops any older run."""
    key = keys.refill_run(timeline_key)
    with get_redis().pipeline(transaction=True) as pipe:
        pipe.zrem(timeline_key, *[str(status_id) for status_id in status_ids])
        pipe.incr(key)
        pipe.expire(key, limits.REFILL_RUN_TTL_SECONDS)
        removed, run, _ = pipe.execute()
    return int(removed), int(run)


def current_refill_run(timeline_key: str) -> int | None:
    value = get_redis().get(keys.refill_run(timeline_key))
    return int(value) if value is not None else None

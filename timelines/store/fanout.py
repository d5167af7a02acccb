"""Writes that reach many timelines at once: a fan-out batch and its clean-up (book listing 8.7), each one
script per batch on one server and one per hash slot on a cluster (``lua.run_batch``).

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from timelines import keys, limits
from timelines.store.lua import run_batch, run_many


def push_to_home_timelines(uids: Sequence[int | str], status_id: int, posted: float) -> None:
    """Add one status to the home timelines of ``uids`` and trim each one (book listing 8.7). One script
    (scripts/push_to_timelines.lua); ZADD and the trim are idempotent, so re-running a batch changes nothing."""
    run_batch(
        "push_to_timelines",
        [[keys.home_timeline(int(uid))] for uid in uids],
        [limits.HOME_TIMELINE_SIZE, repr(posted), status_id],
    )


def push_to_list_timelines(list_ids: Sequence[int | str], status_id: int, posted: float) -> list[bool]:
    """Add one status to the timelines of ``list_ids`` and trim each, skipping lists deleted meanwhile.
    One pipelined round trip of single-slot scripts; re-running it changes nothing."""
    if not list_ids:
        return []
    calls = [
        (
            "add_to_timeline",
            [keys.user_list(int(list_id)), keys.list_timeline(int(list_id))],
            [limits.HOME_TIMELINE_SIZE, repr(posted), status_id],
        )
        for list_id in list_ids
    ]
    return [int(added) >= 0 for added in run_many(calls)]


def remove_from_timelines(timeline_keys: Sequence[str], status_id: int) -> int:
    """Remove one status id from many timelines; returns how many held it. One script
    (scripts/remove_from_timelines.lua); idempotent (ZREM)."""
    results = run_batch("remove_from_timelines", [[key] for key in timeline_keys], [status_id])
    return sum(int(reply) for _, reply in results)

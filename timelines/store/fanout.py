"""Writes that reach many timelines at once: a fan-out batch and its clean-up (book listing 8.7).

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys, limits
from timelines.store.lua import script as _script


def push_to_home_timelines(uids: Sequence[int | str], status_id: int, posted: float) -> None:
    """Add one status to the home timelines of ``uids`` and trim each one (book listing 8.7). One script
    (scripts/push_to_timelines.lua); ZADD and the trim are idempotent, so re-running a batch changes nothing."""
    if not uids:
        return
    _script("push_to_timelines")(
        keys=[keys.home_timeline(int(uid)) for uid in uids], args=[limits.HOME_TIMELINE_SIZE, repr(posted), status_id]
    )


def push_to_list_timelines(list_ids: Sequence[int | str], status_id: int, posted: float) -> list[bool]:
    """Add one status to the timelines of ``list_ids`` and trim each, skipping lists deleted meanwhile.
    One pipelined round trip of single-slot scripts; re-running it changes nothing."""
    if not list_ids:
        return []
    client = get_redis()
    script = _script("add_to_timeline", client)
    with client.pipeline(transaction=False) as pipe:
        for list_id in list_ids:
            script(
                keys=[keys.user_list(int(list_id)), keys.list_timeline(int(list_id))],
                args=[limits.HOME_TIMELINE_SIZE, repr(posted), status_id],
                client=pipe,
            )
        return [int(added) >= 0 for added in pipe.execute()]


def remove_from_timelines(timeline_keys: Sequence[str], status_id: int) -> int:
    """Remove one status id from many timelines; returns how many held it. One script
    (scripts/remove_from_timelines.lua); idempotent (ZREM)."""
    if not timeline_keys:
        return 0
    return int(_script("remove_from_timelines")(keys=list(timeline_keys), args=[status_id]))

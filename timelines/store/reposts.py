"""Reposts (``keys.reposts``): who reposted a status (with its exact ``repost_count``), each user's own
reposts, and the deduplicated fan-out of a repost into timelines.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys, limits
from timelines.store.lua import per_target, run_batch
from timelines.store.lua import script as _script


def claim_repost(uid: int, original_id: int, repost_id: int) -> int:
    """Claim that ``uid`` reposted ``original_id`` as ``repost_id``; returns the repost standing for it (an
    earlier one when ``uid`` had already reposted it)."""
    return int(_script("claim_repost")(keys=[keys.user_reposts(uid)], args=[original_id, repost_id]))


def release_repost(uid: int, original_id: int, repost_id: int) -> bool:
    return bool(_script("release_repost")(keys=[keys.user_reposts(uid)], args=[original_id, repost_id]))


def repost_of_user(uid: int, original_id: int) -> int | None:
    """The id of ``uid``'s repost of ``original_id``, if any."""
    value = get_redis().hget(keys.user_reposts(uid), original_id)
    return int(value) if value is not None else None


def add_reposter(original_id: int, uid: int, posted: float) -> int:
    """The original's side of a repost: 1 added, 0 already there, -1 original gone (nothing written)."""
    return int(
        _script("set_counted")(
            keys=[keys.status(original_id), keys.reposters(original_id)],
            args=["add", uid, repr(posted), "repost_count"],
        )
    )


def remove_reposter(original_id: int, uid: int) -> int:
    return int(
        _script("set_counted")(
            keys=[keys.status(original_id), keys.reposters(original_id)], args=["remove", uid, 0, "repost_count"]
        )
    )


def reposters(original_id: int) -> list[tuple[int, float]]:
    """(reposter uid, posted time of their repost) of every repost of ``original_id``, earliest first."""
    return [(int(uid), score) for uid, score in get_redis().zrange(keys.reposters(original_id), 0, -1, withscores=True)]


def reposts_of(uids: Sequence[int], original_id: int) -> list[int | None]:
    """The repost id of each of ``uids`` for ``original_id`` (None where they have none). One pipeline."""
    if not uids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for uid in uids:
            pipe.hget(keys.user_reposts(uid), original_id)
        return [int(value) if value is not None else None for value in pipe.execute()]


def _targets(timeline_kind: str, target: int | str) -> tuple[str, str, str]:
    if timeline_kind == "lists":
        return keys.user_list(int(target)), keys.list_timeline(int(target)), keys.list_reposts(int(target))
    return keys.user(int(target)), keys.home_timeline(int(target)), keys.home_reposts(int(target))


def push_repost(
    timeline_kind: str, targets: Sequence[int | str], original_id: int, repost_id: int, posted: float
) -> list[bool]:
    """Add a repost to the homes (``timeline_kind`` "followers") or list timelines ("lists") of ``targets``,
    except where its original already stands; returns where it was added (scripts/push_repost.lua)."""
    groups = [list(_targets(timeline_kind, target)) for target in targets]
    results = run_batch("push_repost", groups, [limits.HOME_TIMELINE_SIZE, original_id, repost_id, repr(posted)])
    return [bool(flag) for flag in per_target(results, len(groups))]


def remove_repost(timeline_kind: str, targets: Sequence[int | str], original_id: int, repost_id: int) -> list[bool]:
    """Take a repost out of the timelines of ``targets``; returns where it was (scripts/remove_repost.lua)."""
    groups = [list(_targets(timeline_kind, target)[1:]) for target in targets]
    results = run_batch("remove_repost", groups, [original_id, repost_id])
    return [bool(flag) for flag in per_target(results, len(groups))]

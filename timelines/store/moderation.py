"""Moderation state in Redis (``keys.moderation``): an account's ``suspended`` and ``limited`` flags, kept in
its hash (what the policy reads per author) and in one set per flag (what the streams and the dashboard read).

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from socialsite.redis_client import get_redis
from timelines import keys

_SETS = {"suspended": keys.SUSPENDED_USERS, "limited": keys.LIMITED_USERS}


def set_state(uid: int, flag: str, on: bool) -> bool:
    """Set or clear ``flag`` for ``uid``: the set first (what the streams read), then the user's hash. True if
    the set changed. Two single-key commands in one pipelined round trip; idempotent."""
    client = get_redis()
    with client.pipeline(transaction=False) as pipe:
        if on:
            pipe.sadd(_SETS[flag], uid)
            pipe.hset(keys.user(uid), flag, 1)
        else:
            pipe.srem(_SETS[flag], uid)
            pipe.hdel(keys.user(uid), flag)
        changed, _ = pipe.execute()
    return bool(changed)


def members(flag: str) -> set[int]:
    """Every uid with ``flag`` (a small set: moderated accounts)."""
    return {int(uid) for uid in get_redis().smembers(_SETS[flag])}


def count(flag: str) -> int:
    return int(get_redis().scard(_SETS[flag]))


def states(uids: list[int]) -> list[tuple[bool, bool]]:
    """(suspended, limited) for each of ``uids``, in order: two SMISMEMBERs pipelined in one round trip,
    whatever the number of uids (the sets are small, so this never reads a user's hash)."""
    if not uids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.smismember(keys.SUSPENDED_USERS, uids)  # the streams' and the policy's set of suspended accounts
        pipe.smismember(keys.LIMITED_USERS, uids)
        suspended, limited = pipe.execute()
    return [(bool(s), bool(lim)) for s, lim in zip(suspended, limited, strict=True)]

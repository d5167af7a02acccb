"""The only federation module that sends Redis commands (``federation.keys`` documents them)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from federation import keys
from socialsite.redis_client import get_redis


def claim_activity(activity_id: str) -> bool:
    """Mark an incoming activity as processed; False when it already was (SET NX with a TTL)."""
    return bool(get_redis().set(keys.seen_activity(activity_id), 1, nx=True, ex=keys.SEEN_SECONDS))


def forget_activity(activity_id: str) -> None:
    """Undo ``claim_activity`` after its processing failed, so a retry processes it."""
    get_redis().delete(keys.seen_activity(activity_id))


def claim_replies_fetch(status_id: int, seconds: int) -> bool:
    """Note that the replies of remote post ``status_id`` are being fetched; False when they were less than
    ``seconds`` ago (SET NX with a TTL: the cooldown)."""
    return bool(get_redis().set(keys.replies_fetched(status_id), 1, nx=True, ex=seconds))


def claim_ancestors_fetch(uri: str) -> bool:
    """Note that the post at ``uri`` (missing here) and those above it are being fetched; False when it was
    less than ``ANCESTORS_COOLDOWN_SECONDS`` ago (SET NX with a TTL: the cooldown)."""
    return bool(get_redis().set(keys.ancestors_fetched(uri), 1, nx=True, ex=keys.ANCESTORS_COOLDOWN_SECONDS))


def add_orphan(uri: str, status_id: int) -> None:
    """Remember that stored post ``status_id`` answers the post at ``uri``, missing here (for a day)."""
    with get_redis().pipeline(transaction=True) as pipe:
        pipe.sadd(keys.orphans(uri), status_id)
        pipe.expire(keys.orphans(uri), keys.ORPHANS_SECONDS)
        pipe.execute()


def take_orphans(uri: str) -> list[int]:
    """The stored posts that answer the post at ``uri`` (``add_orphan``), forgotten as they are returned."""
    with get_redis().pipeline(transaction=True) as pipe:
        pipe.smembers(keys.orphans(uri))
        pipe.delete(keys.orphans(uri))
        members, _ = pipe.execute()
    return sorted(int(member) for member in members)


def claim_object(uri: str, status_id: int) -> int:
    """Map remote object ``uri`` to ``status_id`` unless it is mapped already; returns the id it maps to."""
    client = get_redis()
    if client.set(keys.remote_object(uri), status_id, nx=True):
        return status_id
    found = client.get(keys.remote_object(uri))
    return int(found) if found else status_id


def object_status(uri: str) -> int | None:
    found = get_redis().get(keys.remote_object(uri))
    return int(found) if found else None


def release_object(uri: str) -> None:
    get_redis().delete(keys.remote_object(uri))


# KEYS: ap:followers:{uid}, ap:inboxes:{uid}, ap:follower_inbox:{uid} (one slot). ARGV: follower, when, inbox.
_ADD_FOLLOWER = """
if redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
return 1
"""
# KEYS: as above. ARGV: follower.
_REMOVE_FOLLOWER = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
local inbox = redis.call('HGET', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
if inbox and redis.call('HINCRBY', KEYS[2], inbox, -1) <= 0 then redis.call('HDEL', KEYS[2], inbox) end
return 1
"""


# KEYS: as above. ARGV: follower, its inbox now. Moves its count to that inbox when it was counted under another.
_MOVE_FOLLOWER = """
local was = redis.call('HGET', KEYS[3], ARGV[1])
if not was or was == ARGV[2] then return 0 end
if redis.call('HINCRBY', KEYS[2], was, -1) <= 0 then redis.call('HDEL', KEYS[2], was) end
redis.call('HINCRBY', KEYS[2], ARGV[2], 1)
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return 1
"""


def _follower_keys(uid: int) -> list[str]:
    return [keys.remote_followers(uid), keys.remote_inboxes(uid), keys.follower_inbox(uid)]


def add_remote_follower(uid: int, follower: int, when: float, *, inbox: str) -> bool:
    """Record remote ``follower`` of ``uid`` and count it under ``inbox`` (where activities for it go), in one
    script; False when it was recorded already."""
    return bool(get_redis().eval(_ADD_FOLLOWER, 3, *_follower_keys(uid), follower, repr(when), inbox))


def remove_remote_follower(uid: int, follower: int) -> bool:
    """Forget remote ``follower`` of ``uid`` and take it off its inbox's count, in one script."""
    return bool(get_redis().eval(_REMOVE_FOLLOWER, 3, *_follower_keys(uid), follower))


def move_remote_follower(uid: int, follower: int, inbox: str) -> bool:
    """Count remote ``follower`` of ``uid`` under ``inbox`` from now on (its server moved it), in one script;
    False when it is not a recorded follower or was counted there already."""
    return bool(get_redis().eval(_MOVE_FOLLOWER, 3, *_follower_keys(uid), follower, inbox))


def remote_inboxes(uid: int) -> dict[str, int]:
    """The inboxes of ``uid``'s remote followers, each with how many of them it serves (one HGETALL)."""
    return {inbox: int(count) for inbox, count in get_redis().hgetall(keys.remote_inboxes(uid)).items()}


def any_remote_follower(uid: int) -> int | None:
    """One remote follower of ``uid`` (the earliest), or None."""
    found = get_redis().zrange(keys.remote_followers(uid), 0, 0)
    return int(found[0]) if found else None


def accounts_with_remote_followers() -> list[int]:
    """Every local account with a remote follower (a SCAN of ``ap:followers:{*}``, on every node): for audits."""
    found = {
        int(key.rsplit("{", 1)[1].rstrip("}")) for key in get_redis().scan_iter(match=keys.REMOTE_FOLLOWERS_PATTERN)
    }
    return sorted(found)


def follower_inboxes(uid: int) -> dict[int, str]:
    """The inbox each remote follower of ``uid`` is counted under (``ap:follower_inbox:{uid}``)."""
    return {int(k): v for k, v in get_redis().hgetall(keys.follower_inbox(uid)).items()}


def rebuild_remote_inboxes(uid: int, inbox_of: dict[int, str]) -> None:
    """Write ``uid``'s inbox index again from ``inbox_of`` (each remote follower's inbox), in one transaction."""
    counts: dict[str, int] = {}
    for inbox in inbox_of.values():
        counts[inbox] = counts.get(inbox, 0) + 1
    with get_redis().pipeline(transaction=True) as pipe:
        pipe.delete(keys.remote_inboxes(uid), keys.follower_inbox(uid))
        if counts:
            pipe.hset(keys.remote_inboxes(uid), mapping=counts)
            pipe.hset(keys.follower_inbox(uid), mapping={str(k): v for k, v in inbox_of.items()})
        pipe.execute()


def remote_followers(uid: int) -> list[int]:
    """Every remote follower recorded for ``uid`` (the caller checks them against ``followers:{uid}``)."""
    return [int(member) for member in get_redis().zrange(keys.remote_followers(uid), 0, -1)]


def has_remote_followers(uid: int) -> bool:
    return bool(get_redis().exists(keys.remote_followers(uid)))


def scores(key: str, members: Sequence[int]) -> list[float | None]:
    if not members:
        return []
    return list(get_redis().zmscore(key, list(members)))


def keep_follow_request(uid: int, requester: int, activity: dict[str, Any]) -> None:
    get_redis().hset(keys.follow_requests(uid), str(requester), json.dumps(activity))


def pop_follow_request(uid: int, requester: int) -> dict[str, Any] | None:
    """The Follow activity kept for ``requester``'s request to follow ``uid``, forgotten as it is read."""
    client = get_redis()
    with client.pipeline(transaction=True) as pipe:
        pipe.hget(keys.follow_requests(uid), str(requester))
        pipe.hdel(keys.follow_requests(uid), str(requester))
        raw, _ = pipe.execute()
    return json.loads(raw) if raw else None


def note_failure(domain: str, when: float) -> None:
    """Remember when deliveries to ``domain`` began to fail (the first failure since the last success), and
    count the failure. Two commands on one slot, pipelined."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.set(keys.failing_since(domain), repr(when), nx=True)
        pipe.incr(keys.failures(domain))
        pipe.execute()


def note_success(domain: str, when: float | None = None) -> None:
    """``domain`` answered (or was heard from): it is available. Three commands on one slot, pipelined."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.delete(keys.failing_since(domain))
        pipe.delete(keys.failures(domain))
        pipe.set(keys.succeeded(domain), repr(time.time() if when is None else when))
        pipe.execute()


def failing_since(domains: Sequence[str]) -> list[float | None]:
    """When deliveries to each of ``domains`` began to fail, or None for those that do not fail."""
    if not domains:
        return []
    client = get_redis()
    with client.pipeline(transaction=False) as pipe:
        for domain in domains:
            pipe.get(keys.failing_since(domain))
        return [float(value) if value else None for value in pipe.execute()]


def server_states(domains: Sequence[str]) -> list[tuple[float | None, int, float | None]]:
    """(failing since, failures since the last success, last success) of each of ``domains``: one pipelined
    round trip of three GETs per domain."""
    if not domains:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for domain in domains:
            pipe.get(keys.failing_since(domain))
            pipe.get(keys.failures(domain))
            pipe.get(keys.succeeded(domain))
        values = pipe.execute()
    return [
        (
            float(values[index]) if values[index] else None,
            int(values[index + 1] or 0),
            float(values[index + 2]) if values[index + 2] else None,
        )
        for index in range(0, len(values), 3)
    ]

"""Users in Redis: ids, the login index, and user hashes (``keys.users``).

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis, is_cluster
from timelines import keys
from timelines.store.lua import run as _run
from timelines.store.lua import script as _script


def next_user_id() -> int:
    return int(get_redis().incr(keys.USER_ID_COUNTER))


def write_user(uid: int, fields: dict[str, str | int | float]) -> None:
    get_redis().hset(keys.user(uid), mapping=fields)


def claim_login(lowered_login: str, uid: int) -> bool:
    """Map a lowercased login to ``uid`` unless it is already taken (HSETNX: one winner under any race)."""
    return bool(get_redis().hsetnx(keys.USERS_BY_LOGIN, lowered_login, uid))


def release_login(lowered_login: str, uid: int) -> None:
    """Undo ``claim_login`` for ``uid`` only; a login claimed by someone else is left alone (one script)."""
    _script("release_login")(keys=[keys.USERS_BY_LOGIN], args=[lowered_login, uid])


def delete_user(uid: int) -> None:
    get_redis().delete(
        keys.user(uid),
        keys.profile_timeline(uid),
        keys.profile_held(uid),
        keys.home_timeline(uid),
        keys.followers(uid),
        keys.following(uid),
    )


def get_uid_by_login(lowered_login: str) -> int | None:
    value = get_redis().hget(keys.USERS_BY_LOGIN, lowered_login)
    return int(value) if value is not None else None


def get_user(uid: int) -> dict[str, str]:
    return get_redis().hgetall(keys.user(uid))


def get_user_fields(uid: int, names: Sequence[str]) -> list[str | None]:
    """The fields ``names`` of ``uid``'s hash, in order (None for each one it lacks; all None for an unknown uid)."""
    return get_redis().hmget(keys.user(uid), list(names))


def get_users(uids: Sequence[int]) -> list[dict[str, str]]:
    """User hashes for ``uids``, in order; an unknown uid gives ``{}``. One round trip: one script on a single
    server (``scripts/user_hashes.lua``, a third of the client time of a pipeline of HGETALLs), a pipeline on a
    cluster (the hashes are in different slots)."""
    if not uids:
        return []
    user_keys = [keys.user(uid) for uid in uids]
    if not is_cluster():
        return [dict(zip(flat[::2], flat[1::2], strict=True)) for flat in _run("user_hashes", user_keys)]
    with get_redis().pipeline(transaction=False) as pipe:
        for key in user_keys:
            pipe.hgetall(key)
        return pipe.execute()


def last_ids() -> tuple[int, int]:
    """The last status id and the last user id handed out so far (0 when none). One pipelined round trip."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.hget(keys.STATUS_ID_COUNTER, "last")
        pipe.get(keys.USER_ID_COUNTER)
        last_status, last_user = pipe.execute()
    return int(last_status or 0), int(last_user or 0)


def last_id(counter: str) -> int:
    """The last id handed out by an INCR counter such as ``user:id:`` (0 if none yet)."""
    return int(get_redis().get(counter) or 0)


def get_uids_by_logins(lowered_logins: Sequence[str]) -> list[int | None]:
    """The uid of each lowercased login, None where nobody has it (one HMGET)."""
    if not lowered_logins:
        return []
    return [int(uid) if uid is not None else None for uid in get_redis().hmget(keys.USERS_BY_LOGIN, lowered_logins)]

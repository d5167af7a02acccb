"""Reading users: by id, by login, in bulk."""

from __future__ import annotations

from timelines import exceptions, keys, store
from timelines.records import User


def get_user(*, uid: int) -> User:
    fields = store.users.get_user(uid)
    if not fields:
        raise exceptions.UnknownUser()
    return User.from_hash(fields)


def get_user_suspended(*, uid: int) -> bool:
    """Whether ``uid`` is suspended, read on its own (two fields of the hash, not the whole of it, as
    ``get_user(uid=uid).suspended`` would): what every client API call checks. Raises ``UnknownUser``."""
    found, suspended = store.users.get_user_fields(uid, ("id", "suspended"))
    if found is None:
        raise exceptions.UnknownUser()
    return bool(suspended)


def get_user_by_login(*, login: str) -> User:
    """The user with this login, matched case-insensitively. Raises ``UnknownUser``."""
    uid = store.users.get_uid_by_login((login or "").strip().lower())
    if uid is None:
        raise exceptions.UnknownUser()
    return get_user(uid=uid)


def get_users(*, uids: list[int]) -> list[User]:
    """Users for ``uids`` in order, skipping unknown ones. One round trip."""
    return [User.from_hash(fields) for fields in store.users.get_users(uids) if fields]


def get_all_users() -> list[User]:
    """Every user, by id (for maintenance commands). O(users), pipelined in chunks."""
    last = store.users.last_id(keys.USER_ID_COUNTER)
    users: list[User] = []
    for start in range(1, last + 1, 500):
        users.extend(get_users(uids=list(range(start, min(start + 500, last + 1)))))
    return users

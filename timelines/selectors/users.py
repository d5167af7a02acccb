"""Reading users: by id, by login, in bulk."""

from __future__ import annotations

from functools import lru_cache

from timelines import exceptions, keys, store
from timelines.records import User

# Records built lately from user hashes: a client API page names some twenty people and names them again on the
# next call, and building a User of its hash was a tenth of a home page's entity time. A User is frozen, so the
# same record can serve every caller.
USER_CACHE_SIZE = 4096


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
    return [_user(tuple(fields.items())) for fields in store.users.get_users(uids) if fields]


@lru_cache(maxsize=USER_CACHE_SIZE)
def _user(fields: tuple[tuple[str, str], ...]) -> User:
    # Keyed on the whole hash as just read, so a changed field (a count, a name, a suspension) is a new key: a
    # record is reused only for the very same hash, never one read earlier.
    return User.from_hash(dict(fields))


def get_all_users() -> list[User]:
    """Every user, by id (for maintenance commands). O(users), pipelined in chunks."""
    last = store.users.last_id(keys.USER_ID_COUNTER)
    users: list[User] = []
    for start in range(1, last + 1, 500):
        users.extend(get_users(uids=list(range(start, min(start + 500, last + 1)))))
    return users

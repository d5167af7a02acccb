"""Profile fields of a user hash (``keys.users``): display name, bio and the bio's mentions, resolved through
the login index.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from socialsite.redis_client import get_redis
from timelines import keys
from timelines.store.lua import script as _script


def update_user(uid: int, fields: Mapping[str, str]) -> dict[str, str | None] | None:
    """Set ``fields`` of an existing ``user:{uid}``; returns what they held before, or None when there is no
    such user (nothing written). One script (scripts/update_user.lua)."""
    args: list[str] = []
    for name, value in fields.items():
        args.extend((name, value))
    old = _script("update_user")(keys=[keys.user(uid)], args=args)
    if old is None:
        return None
    return dict(zip(fields, old, strict=True))


def uids_by_logins(lowered_logins: Sequence[str]) -> list[int | None]:
    """The uid of each lowercased login, or None where no user has it. One round trip (HMGET ``users:``)."""
    if not lowered_logins:
        return []
    found = get_redis().hmget(keys.USERS_BY_LOGIN, list(lowered_logins))
    return [int(uid) if uid is not None else None for uid in found]

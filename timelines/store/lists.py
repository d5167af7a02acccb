"""Named lists of users: ids, hashes, renaming and deleting (``keys.lists``).

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys
from timelines.store.lua import script as _script


def next_list_id() -> int:
    return int(get_redis().incr(keys.LIST_ID_COUNTER))


def write_list(list_id: int, fields: dict[str, str | int | float]) -> None:
    get_redis().hset(keys.user_list(list_id), mapping=fields)


def get_list(list_id: int) -> dict[str, str]:
    return get_redis().hgetall(keys.user_list(list_id))


def get_lists(list_ids: Sequence[int | str]) -> list[dict[str, str]]:
    """List hashes for ``list_ids``, in order; a deleted list gives ``{}``. One pipelined round trip."""
    if not list_ids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for list_id in list_ids:
            pipe.hgetall(keys.user_list(int(list_id)))
        return pipe.execute()


def rename_list(list_id: int, uid: int, name: str) -> str:
    """Rename a list owned by ``uid``: "renamed", "missing" or "not_owner" (scripts/list_rename.lua)."""
    return str(_script("list_rename")(keys=[keys.user_list(list_id)], args=[uid, name]))


def delete_list_if_owner(list_id: int, uid: int) -> str:
    """Delete a list's hash and timeline if ``uid`` owns it: "deleted", "missing" or "not_owner"."""
    return str(_script("list_delete")(keys=[keys.user_list(list_id), keys.list_timeline(list_id)], args=[uid]))


def list_owners(list_ids: Sequence[int | str]) -> list[int | None]:
    """The owner uid of each list, None where the list is gone. One pipelined round trip."""
    if not list_ids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for list_id in list_ids:
            pipe.hget(keys.user_list(int(list_id)), "uid")
        return [int(uid) if uid is not None else None for uid in pipe.execute()]

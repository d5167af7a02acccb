"""Replies and threads (``keys.conversations``): the replies of a status and the shape of a conversation.

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys, limits
from timelines.store.graph import members_after
from timelines.store.lua import run_many
from timelines.store.lua import script as _script


def add_reply(parent_id: int, reply_id: int, posted: float) -> int:
    """Record a reply under its parent and reset the parent's ``reply_count``; -1 when the parent is gone."""
    return int(
        _script("add_reply")(keys=[keys.status(parent_id), keys.replies(parent_id)], args=[reply_id, repr(posted)])
    )


def remove_reply(parent_id: int, reply_id: int) -> int:
    """Take a reply out of its parent's replies and reset ``reply_count``; 1 if it was there."""
    return int(_script("remove_reply")(keys=[keys.status(parent_id), keys.replies(parent_id)], args=[reply_id]))


def link_into_thread(root_id: int, reply_id: int, parent_id: int) -> bool:
    """Record the reply's parent in its conversation's shape; False when the thread is full."""
    return bool(
        _script("add_to_thread")(keys=[keys.thread(root_id)], args=[reply_id, parent_id, limits.MAX_THREAD_SIZE])
    )


def thread_links(root_id: int) -> dict[int, int]:
    """Every reply -> parent link of the conversation rooted at ``root_id`` (deleted replies included)."""
    return {int(child): int(parent) for child, parent in get_redis().hgetall(keys.thread(root_id)).items()}


def replies_after(parent_id: int, cursor: tuple[float, str] | None, count: int) -> list[tuple[str, float]]:
    """The next ``count`` (reply id, posted) of a status's direct replies after ``cursor`` (score, member)."""
    return members_after(keys.replies(parent_id), cursor, count)


def mark_parent_deleted(reply_ids: Sequence[int | str]) -> None:
    """Note on each of ``reply_ids`` that the post it answers was deleted (``in_reply_to_deleted``), for
    "Replying to a deleted post". Only replies that still exist are touched. One pipelined round trip."""
    run_many([("mark_if_exists", [keys.status(reply_id)], ["in_reply_to_deleted", 1]) for reply_id in reply_ids])

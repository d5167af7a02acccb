"""Named lists of users (the book's exercises "Lists of users" and "Updating lists"): creating, renaming,
deleting, adding and removing members. A list's timeline is fed by ``delivery`` like a home."""

from __future__ import annotations

import contextlib
import time

from redis.exceptions import RedisError

from timelines import exceptions, keys, limits, queue, store
from timelines.services.author_copies import copy_author, remove_author
from timelines.services.users import require_user
from timelines.validation import clean_list_name

Cursor = tuple[float, str]


def _require_list_owner(uid: int, list_id: int) -> dict[str, str]:
    """The list's hash, if it exists and ``uid`` owns it. A list's owner never changes, so checking before
    acting cannot race; the existence check is repeated inside each write script."""
    fields = store.lists.get_list(list_id)
    if not fields:
        raise exceptions.UnknownList()
    if int(fields["uid"]) != uid:
        raise exceptions.NotListOwner()
    return fields


def create_user_list(*, uid: int, name: str) -> int:
    """Create an empty named list owned by ``uid`` and return its id (the book's ``create_user_list``).

    Two single-slot steps: the id is claimed in lists:{uid} (with the counter and the per-user limit, so
    racing creations cannot pass it), then list:{id} is written; readers skip an id whose hash is not there
    yet. Raises ``InvalidListName``, ``UnknownUser`` or ``TooManyLists``.
    """
    name = clean_list_name(name)
    owner = require_user(uid)
    list_id = store.lists.next_list_id()
    now = time.time()
    claimed = store.graph.set_add_capped(
        keys.lists_of(uid), keys.user(uid), list_id, now, "lists", limits.MAX_LISTS_PER_USER
    )
    if claimed == -1:
        raise exceptions.UnknownUser()
    if claimed == -2:
        raise exceptions.TooManyLists()
    try:
        store.lists.write_list(
            list_id,
            {"id": list_id, "uid": uid, "login": owner["login"], "name": name, "members": 0, "created": repr(now)},
        )
    except RedisError:
        # Give the claimed id back; if Redis is gone altogether, audit_timelines removes it later.
        with contextlib.suppress(RedisError):
            store.graph.graph_remove(keys.lists_of(uid), keys.user(uid), list_id, "lists")
        raise
    return list_id


def rename_user_list(*, uid: int, list_id: int, name: str) -> None:
    """Rename a list ``uid`` owns (one atomic check-and-write). Raises ``InvalidListName``, ``UnknownList`` or
    ``NotListOwner``."""
    name = clean_list_name(name)
    outcome = store.lists.rename_list(list_id, uid, name)
    if outcome == "missing":
        raise exceptions.UnknownList()
    if outcome == "not_owner":
        raise exceptions.NotListOwner()


def delete_user_list(*, uid: int, list_id: int) -> bool:
    """Delete a list ``uid`` owns. Returns True; raises ``UnknownList`` or ``NotListOwner``.

    The list's hash and timeline go in one atomic step, so the list disappears at once and no fan-out can
    recreate its timeline; then it leaves the owner's lists:{uid}, and ``forget_user_list`` removes it from
    each member's list:out:{uid} (first ``POSTS_PER_PASS`` members now, the rest deferred).
    """
    outcome = store.lists.delete_list_if_owner(list_id, uid)
    if outcome == "missing":
        raise exceptions.UnknownList()
    if outcome == "not_owner":
        raise exceptions.NotListOwner()
    store.graph.graph_remove(keys.lists_of(uid), keys.user(uid), list_id, "lists")
    forget_user_list(list_id=list_id)
    return True


def forget_user_list(*, list_id: int, cursor: Cursor | None = None) -> int:
    """Remove a deleted list from list:out:{uid} of its next ``POSTS_PER_PASS`` members after ``cursor`` and
    recount their ``listed``; the last pass deletes the list's member set. Does nothing to a list that exists.
    Idempotent; returns the number of members in this pass."""
    if store.lists.get_list(list_id):
        return 0
    members = store.graph.members_after(keys.list_members(list_id), cursor, limits.POSTS_PER_PASS)
    store.graph.graph_remove_many(
        [(keys.listed_in(int(member)), keys.user(int(member))) for member, _ in members], list_id, "listed"
    )
    if len(members) >= limits.POSTS_PER_PASS:
        last_member, last_score = members[-1]
        queue.enqueue_forget_list(list_id=list_id, cursor=(last_score, last_member))
    else:
        store.graph.delete_keys(keys.list_members(list_id))
    return len(members)


def follow_user_list(*, uid: int, other_uid: int, list_id: int) -> bool:
    """Add ``other_uid`` to the list ``list_id`` that ``uid`` owns; True if they were not in it yet.

    The book's ``follow_user_list``, fixed like ``follow_user``: each side (list:in:{id} with the list's
    ``members``, list:out:{other} with their ``listed``) is one single-slot step that sets its counter from the
    set's size; the member's side is written even when nothing changed, which completes an interrupted add.
    A new member's latest ``HOME_TIMELINE_SIZE`` statuses are copied into the list's timeline (trimmed). Anyone
    can be added, followed or not, the owner included. Raises ``UnknownList``, ``NotListOwner``,
    ``UnknownUser`` or ``ListFull``.
    """
    _require_list_owner(uid, list_id)
    require_user(other_uid)
    now = time.time()
    added = store.graph.set_add_capped(
        keys.list_members(list_id), keys.user_list(list_id), other_uid, now, "members", limits.MAX_LIST_MEMBERS
    )
    if added == -1:
        raise exceptions.UnknownList()
    if added == -2:
        raise exceptions.ListFull()
    if store.graph.graph_add(keys.listed_in(other_uid), keys.user(other_uid), list_id, now, "listed") < 0:
        store.graph.graph_remove(keys.list_members(list_id), keys.user_list(list_id), other_uid, "members")
        raise exceptions.UnknownUser()
    if added:
        copy_author(author=other_uid, list_id=list_id)
    return bool(added)


def unfollow_user_list(*, uid: int, other_uid: int, list_id: int) -> bool:
    """Remove ``other_uid`` from the list ``list_id`` that ``uid`` owns; True if they were in it.

    The book's ``unfollow_user_list``, fixed: counters set from sizes, every status of the former member that
    can still be in the list's timeline removed (not only their latest 1,000), and the refill queued as a job
    with its arguments (the book called ``refill_timeline`` without its connection). Returns at once. Raises
    ``UnknownList`` or ``NotListOwner``.
    """
    _require_list_owner(uid, list_id)
    removed = store.graph.graph_remove(keys.list_members(list_id), keys.user_list(list_id), other_uid, "members")
    store.graph.graph_remove(keys.listed_in(other_uid), keys.user(other_uid), list_id, "listed")
    if removed:
        remove_author(author=other_uid, list_id=list_id)
    return bool(removed)

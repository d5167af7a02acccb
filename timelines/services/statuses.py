"""Posting and deleting statuses (book 8.1.2 and 8.4): the author's side, then delivery, then the event."""

from __future__ import annotations

from typing import Any

from timelines import events, exceptions, store
from timelines.records import Status
from timelines.services.delivery import deliver_status, withdraw_status
from timelines.services.discovery import index_status, unindex_status
from timelines.services.publishing import publish
from timelines.services.users import require_user
from timelines.validation import clean_extra, clean_message


def create_status(*, uid: int, message: str, **data: Any) -> Status:
    """Write a status hash for ``uid`` and return the status (book listing 8.2), without delivering or
    publishing it. Raises ``InvalidMessage``, ``InvalidStatusData`` or ``UnknownUser``."""
    return Status.from_hash(_create(uid=uid, message=message, data=data))


def _create(*, uid: int, message: str, data: dict[str, Any]) -> dict[str, Any]:
    """Write the status hash; returns its fields in stored order, typed as events carry them."""
    message = clean_message(message)
    extra = clean_extra(data)
    author = require_user(uid)
    status_id, posted_micros = store.statuses.next_status_id()
    posted = posted_micros / 1_000_000
    fields: dict[str, Any] = {
        **extra,
        "message": message,
        "posted": repr(posted),
        "id": status_id,
        "uid": uid,
        "login": author["login"],
        "name": author.get("name") or author["login"],
    }
    store.statuses.write_status(status_id, fields)
    return {**fields, "posted": posted}


def post_status(*, uid: int, message: str, **data: Any) -> int:
    """Post a status: create it, add it to the author's profile and home, deliver it, publish it.

    Returns the status id (book listing 8.6). The first ``POSTS_PER_PASS`` followers, and the first
    ``POSTS_PER_PASS`` lists the author is in, get it before this returns; the rest are reached by deferred
    jobs (``delivery``), so the cost of this call does not grow with the audience. Raises ``InvalidMessage``,
    ``InvalidStatusData`` or ``UnknownUser``.
    """
    fields = _create(uid=uid, message=message, data=data)
    status_id, posted = int(fields["id"]), float(fields["posted"])
    if store.statuses.add_to_profile(uid, status_id, posted) < 0:
        store.statuses.delete_status_if_owner(status_id, uid)
        raise exceptions.UnknownUser()
    deliver_status(status=fields)
    index_status(fields)
    publish(events.status_created(fields))
    return status_id


def delete_status(*, uid: int, status_id: int) -> bool:
    """Delete a status written by ``uid`` (book listing 8.8) and publish the deletion.

    The owner check and the delete are one atomic step; readers skip the missing hash at once. Then the id
    is removed from the author's profile and home (recounting ``posts``) and withdrawn from every audience it
    was delivered to (the first ``POSTS_PER_PASS`` of each now, the rest by deferred jobs), so no "zombie" id
    stays behind. Returns True. Raises ``StatusNotFound`` (no such status, or already deleted) or ``NotOwner``.
    """
    outcome, fields = store.statuses.delete_status_if_owner(status_id, uid)
    if outcome == "missing":
        raise exceptions.StatusNotFound()
    if outcome == "not_owner":
        raise exceptions.NotOwner()
    store.statuses.remove_from_author(uid, status_id)
    withdraw_status(uid=uid, status_id=status_id)
    unindex_status(fields)
    publish(events.status_deleted(_typed(fields)))
    return True


def _typed(fields: dict[str, str]) -> dict[str, Any]:
    """A stored status hash with ``id``/``uid`` as ints and ``posted`` as a float, in stored order."""
    return {
        **fields,
        "id": int(fields["id"]),
        "uid": int(fields["uid"]),
        "posted": float(fields["posted"]),
    }

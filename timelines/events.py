"""Typed events: what the services publish on ``keys.STREAM_CHANNEL`` after a write succeeded.

Every event is one JSON object with a ``type`` and a version ``v``; the rest depends on the type::

    {"type": "status.created", "v": 1, "status": {<the status exactly as stored>}}
    {"type": "status.deleted", "v": 1, "status": {<the deleted status as it was stored>}}
    {"type": "status.updated", "v": 1, "status": {<the edited status as stored now, with edited_at and edits>}}
    {"type": "notification.created", "v": 1, "uid": 42, "unread": 3}
    {"type": "notifications.changed", "v": 1, "uid": 42, "unread": 0}
    {"type": "user.suspended", "v": 1, "uid": 42}   (and user.unsuspended, user.limited, user.unlimited)
    {"type": "relations.changed", "v": 1, "uid": 42, "other": 7}
    {"type": "message.created", "v": 1, "uid": 42, "conversation": 3, "unread": 1, "status": {<the message>}}
    {"type": "messages.changed", "v": 1, "uid": 42, "unread": 0}   (with "removed": <id> after a deletion)
    {"type": "message.updated", "v": 1, "uid": 42, "conversation": 3, "status": {<the message as edited>}}
    {"type": "timeline.delivery", "v": 1, "kind": "post", "homes": [42, 43], "lists": [7], "status": {...}}

A repost is a status of its own; its event carries the original status in place of the ``repost_of`` id, so a
stream can show (and filter on) what was reposted. ``notification.created`` tells the pages of user ``uid``
their new unread count; ``notifications.changed`` does the same after they were read or removed.
``message.created`` goes to each participant ``uid`` of a direct message (one event per participant, at most
``limits.MAX_MESSAGE_PARTICIPANTS``): their open conversation page shows it, and every page of theirs the
number of unread conversations; ``messages.changed`` gives that number after a conversation was read or a message
deleted; ``message.updated`` goes to each participant of a message just edited (their open conversation page swaps
it in, their open list of conversations reads itself again). ``relations.changed`` tells the live pages of user
``uid`` that a block, a mute or an unfollow between them and ``other`` was just written, so they stop sending
``other``'s posts without waiting for their next refresh.

``timeline.delivery`` is what one delivery pass (``services.delivery``) wrote, and to whom: the home timelines
(owner uids) and list timelines (list ids) it reached. ``kind`` says what happened there: ``post`` (the status
entered them; a repost carries its original, as ``status.created`` does), ``delete`` (it left them; the status
is only ``{"id": ..., "uid": ...}``), ``reset`` (many entries changed at once, a follow's copy or a refill: no status,
an open page reads its timeline again). An edit changes no timeline (they hold ids), so it is no delivery: it is
``status.updated``, which each open page applies to the posts the delivery sent it, and for a direct message
``message.updated`` to each participant. Open live
pages follow these events, never their own idea of who should get what; a new kind is ignored by a page that
does not know it. A post of an account too followed to push (``services.pulled``) is announced once with
``"followers_of": <author uid>``: it reaches its followers' homes when they are read, so an open home of a follower
judges it as the read does.

A status travels as stored (its extra fields first, then message, posted, id, uid, login, name), with ``id``
and ``uid`` as integers and ``posted`` as a float; a deletion carries the whole status so that filters can
tell which clients had seen it (book listing 8.14). Subscribers ignore types (and versions) they do not
know, so a new kind of event never breaks an older process reading the same channel.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

VERSION = 1

STATUS_CREATED = "status.created"
STATUS_DELETED = "status.deleted"
# An edit (issue 19): the status again, as stored after the edit. Streams send it again; live pages swap it in.
STATUS_UPDATED = "status.updated"

USER_SUSPENDED = "user.suspended"
USER_UNSUSPENDED = "user.unsuspended"
USER_LIMITED = "user.limited"
USER_UNLIMITED = "user.unlimited"
USER_TYPES = frozenset({USER_SUSPENDED, USER_UNSUSPENDED, USER_LIMITED, USER_UNLIMITED})

# Someone's relations changed (a block, a mute, an unfollow): their open live pages re-read the policy's state.
RELATIONS_CHANGED = "relations.changed"
RELATION_TYPES = frozenset({RELATIONS_CHANGED})

NOTIFICATION_CREATED = "notification.created"
NOTIFICATIONS_CHANGED = "notifications.changed"

MESSAGE_CREATED = "message.created"
MESSAGES_CHANGED = "messages.changed"
MESSAGE_UPDATED = "message.updated"
MESSAGE_TYPES = frozenset({MESSAGE_CREATED, MESSAGES_CHANGED, MESSAGE_UPDATED})

# What a delivery pass wrote to whom (``services.delivery``): the one event the live pages follow.
TIMELINE_DELIVERY = "timeline.delivery"
POST, DELETE, RESET = "post", "delete", "reset"
DELIVERY_KINDS = frozenset({POST, DELETE, RESET})

STATUS_TYPES = frozenset({STATUS_CREATED, STATUS_DELETED, STATUS_UPDATED})
NOTIFICATION_TYPES = frozenset({NOTIFICATION_CREATED, NOTIFICATIONS_CHANGED})


class InvalidEvent(ValueError):
    """A message on the event channel that is not a typed event."""


def encode(event_type: str, **payload: Any) -> str:
    """The JSON text of an event of ``event_type`` (compact, UTF-8 kept as is)."""
    return json.dumps({"type": event_type, "v": VERSION, **payload}, separators=(",", ":"), ensure_ascii=False)


def status_created(status: Mapping[str, Any]) -> str:
    return encode(STATUS_CREATED, status=dict(status))


def status_deleted(status: Mapping[str, Any]) -> str:
    return encode(STATUS_DELETED, status=dict(status))


def status_updated(status: Mapping[str, Any]) -> str:
    return encode(STATUS_UPDATED, status=dict(status))


def user_changed(event_type: str, *, uid: int) -> str:
    """A moderation change of account ``uid`` (``user.suspended``, ...)."""
    if event_type not in USER_TYPES:
        raise ValueError(event_type)
    return encode(event_type, uid=uid)


def relations_changed(*, uid: int, other: int) -> str:
    """``uid``'s relations with ``other`` changed (followed, unfollowed, blocked or unblocked either way, muted,
    unmuted): ``uid``'s open live pages read them again at once."""
    return encode(RELATIONS_CHANGED, uid=uid, other=other)


def notification_created(*, uid: int, unread: int) -> str:
    return encode(NOTIFICATION_CREATED, uid=uid, unread=unread)


def notification_created_around(*, uid: int) -> tuple[str, str]:
    """``notification_created``'s text before its unread count and after it, for a write that learns the
    count as it publishes (``store.notifications.add``): ``before + str(unread) + after`` is that event."""
    marker = '"unread":-1'
    before, _, after = encode(NOTIFICATION_CREATED, uid=uid, unread=-1).partition(marker)
    return before + '"unread":', after


def notifications_changed(*, uid: int, unread: int) -> str:
    return encode(NOTIFICATIONS_CHANGED, uid=uid, unread=unread)


def message_created(*, uid: int, conversation: int, unread: int, status: Mapping[str, Any]) -> str:
    return encode(MESSAGE_CREATED, uid=uid, conversation=conversation, unread=unread, status=dict(status))


def message_updated(*, uid: int, conversation: int, status: Mapping[str, Any]) -> str:
    """A message of ``uid``'s conversation ``conversation`` was edited: ``status`` as stored after the edit."""
    return encode(MESSAGE_UPDATED, uid=uid, conversation=conversation, status=dict(status))


def messages_changed(*, uid: int, unread: int, removed: int | None = None, read: int | None = None) -> str:
    """``uid``'s number of unread conversations changed; ``removed``: a deleted message, for their open
    conversation page to take away; ``read``: the conversation they just read (the client API's ``direct``
    stream sends it again)."""
    extra: dict[str, int] = {}
    if removed is not None:
        extra["removed"] = removed
    if read is not None:
        extra["read"] = read
    return encode(MESSAGES_CHANGED, uid=uid, unread=unread, **extra)


def delivered(
    kind: str,
    *,
    homes: Sequence[int | str] = (),
    lists: Sequence[int | str] = (),
    status: Mapping[str, Any] | None = None,
    followers_of: int | None = None,
) -> str:
    """A delivery pass's event: ``kind`` (``DELIVERY_KINDS``) happened to ``status`` in the homes of ``homes``
    and the list timelines of ``lists``. ``status`` is required except for ``reset``. ``followers_of``: a post
    of that account merged into its followers' homes when read instead of written (``services.pulled``)."""
    if kind not in DELIVERY_KINDS:
        raise ValueError(kind)
    # Written by hand: a job pass names up to DELIVERY_JOB_SIZE (10,000) homes, given as the decimal strings read
    # from the audience's ZSET, and json.dumps of as many ints cost 4.5 ms a pass.
    head = f'{{"type":"{TIMELINE_DELIVERY}","v":{VERSION},"kind":"{kind}","homes":{_ids(homes)},"lists":{_ids(lists)}'
    if followers_of is not None:
        head += f',"followers_of":{int(followers_of)}'
    if status is None:
        return head + "}"
    return head + ',"status":' + json.dumps(dict(status), separators=(",", ":"), ensure_ascii=False) + "}"


def _ids(ids: Sequence[int | str]) -> str:
    """A JSON array of ids given as ints or decimal strings; anything else raises ``ValueError``."""
    if not ids:
        return "[]"
    joined = ",".join(map(str, ids))
    digits = joined.replace(",", "")
    # One comma between each two ids and none elsewhere, and nothing but ASCII digits: each id is a whole number.
    well_formed = joined.count(",") == len(ids) - 1 and ",," not in joined and joined[:1] != "," != joined[-1:]
    if not (well_formed and digits.isdecimal() and digits.isascii()):
        raise ValueError("ids are whole numbers")
    return "[" + joined + "]"


def decode(message: str | bytes) -> dict[str, Any]:
    """One published event as a dict with at least ``type`` (str) and ``v`` (int).

    Raises ``InvalidEvent`` for anything else. A status event must carry a status with an integer ``id`` and
    ``uid``; other types are returned as they are, for the subscriber to ignore or handle.
    """
    try:
        event = json.loads(message)
    except ValueError as error:
        raise InvalidEvent(str(error)) from None
    if not isinstance(event, dict) or not isinstance(event.get("type"), str) or not _is_int(event.get("v")):
        raise InvalidEvent("an event is a JSON object with a string type and an integer v")
    if event["type"] in STATUS_TYPES:
        status = event.get("status")
        if not isinstance(status, dict) or not _is_int(status.get("id")) or not _is_int(status.get("uid")):
            raise InvalidEvent("a status event carries a status with integer id and uid")
    elif event["type"] == TIMELINE_DELIVERY and not _is_delivery(event):
        raise InvalidEvent("a delivery event carries a kind, integer homes and lists, and a status unless a reset")
    elif event["type"] == MESSAGE_UPDATED and not (_is_int(event.get("uid")) and _is_int(event.get("conversation"))):
        raise InvalidEvent("a message.updated event carries integer uid and conversation")
    elif event["type"] in MESSAGE_TYPES - {MESSAGE_UPDATED} and not (
        _is_int(event.get("uid")) and _is_int(event.get("unread"))
    ):
        raise InvalidEvent("a message event carries integer uid and unread")
    elif event["type"] in NOTIFICATION_TYPES and not (_is_int(event.get("uid")) and _is_int(event.get("unread"))):
        raise InvalidEvent("a notification event carries integer uid and unread")
    elif event["type"] in USER_TYPES and not _is_int(event.get("uid")):
        raise InvalidEvent("a user event carries an integer uid")
    elif event["type"] in RELATION_TYPES and not (_is_int(event.get("uid")) and _is_int(event.get("other"))):
        raise InvalidEvent("a relations event carries integer uid and other")
    return event


def is_status_event(event: Mapping[str, Any]) -> bool:
    """A status event of a version this code understands."""
    return event.get("type") in STATUS_TYPES and event.get("v") == VERSION


def _is_delivery(event: Mapping[str, Any]) -> bool:
    homes, lists = event.get("homes"), event.get("lists")
    if not isinstance(homes, list) or not isinstance(lists, list) or not all(map(_is_int, [*homes, *lists])):
        return False
    if event.get("kind") == RESET:
        return True
    status = event.get("status")
    return isinstance(status, dict) and _is_int(status.get("id")) and _is_int(status.get("uid"))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

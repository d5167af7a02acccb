"""How a status is laid out in its hash ``status:{id}``: what ``store.statuses`` writes, and how what it
reads is handed back.

Everything above the store sees a status hash as it was first stored (book listing 8.2): its fields in stored
order (extra data, ``message``, ``posted``, ``id``, ``uid``, ``login``, ``name``, then reply, mention and tag
fields, then the counters added later), every value a string, ``posted`` the ``repr`` of a float of seconds.
Stored, a status is smaller (issue 13: at most 300 B per status of 140 characters)::

    > HGETALL status:{9001}
    G "51.5,-0.12"  M "hello"  P 1763800000500000  uid 42  L alice  N "Alice Liddell"

- ``id`` is not stored: the key says it. It is put back on read, right after ``posted``, where it was.
- ``posted`` is stored as integer microseconds (``next_status_id``'s clock) under ``P``: a ziplist or listpack
  keeps an integer in 8 bytes instead of 17 characters. It reads back as ``repr(micros / 1_000_000)``, the
  very text the services computed (they divide the same integer). A time that is not a whole number of
  microseconds is stored as written, under ``posted``.
- The fields every status has, the book's ``location``, and the reply, mention, tag, visibility and repost
  fields the services add are stored under short names (``STORED_NAMES``): upper-case letters, ``@`` and ``#``. Extra
  fields are lower-case snake_case (``validation.clean_extra``), so the two never collide.
- ``uid``, the counters, ``repost_of`` and ``in_reply_to_deleted`` keep their names: scripts read and
  increment them by name (``read_page.lua``, ``delete_status.lua``, ``set_counted.lua``, ...).

A hash written before this layout (long names, ``id`` and ``posted`` as text) reads exactly as before:
``from_stored`` maps only the short names. ``read_page.lua`` reads ``P`` and ``posted`` both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

POSTED = "posted"
STORED_POSTED = "P"  # integer microseconds
# Field name as readers know it -> the name it is stored under. Never stored short: the names scripts read or
# write (uid, repost_of, the counters, in_reply_to_deleted).
STORED_NAMES = {
    "message": "M",
    "login": "L",
    "name": "N",
    "location": "G",
    "in_reply_to": "R",
    "in_reply_to_uid": "RU",
    "in_reply_to_login": "RL",
    "root": "C",  # the conversation's first post
    "mentions": "@",
    "tags": "#",
    "private": "PV",  # the flag of statuses written before visibilities (read as visibility "private")
    "visibility": "V",  # stored only when not "public" (timelines.visibility)
    "repost_of_uid": "OU",
    "repost_of_login": "OL",
}
# The fields a policy may judge a status by besides its author (``policy.Policy.status_fields``): a status
# holding any of them is recorded in its author's ``keys.profile_held`` (``store.copies``).
HELD_FIELDS = ("private", "visibility", "repost_of_uid")
_READ_NAMES = {stored: name for name, stored in STORED_NAMES.items()}
_MICROS = 1_000_000


def posted_micros(posted: str) -> int | None:
    """The whole microseconds ``posted`` (a ``repr`` of seconds) stands for, or None when the text would not
    read back as itself from them."""
    try:
        micros = round(float(posted) * _MICROS)
    except (TypeError, ValueError, OverflowError):
        return None
    return micros if repr(micros / _MICROS) == posted else None


def posted_text(value: Any) -> str | None:
    """``posted`` as readers know it (seconds, as text) from what a read of it returned: integer microseconds
    (``P``, or ``read_page.lua``'s integer reply), text of seconds (the older ``posted``), or None."""
    if value is None or value is False:
        return None
    if isinstance(value, int):
        return repr(value / _MICROS)
    return str(value)


def to_stored(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The mapping to ``HSET`` for a new status whose fields (as readers know them) are ``fields``."""
    stored: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "id":
            continue
        if name == POSTED:
            micros = posted_micros(str(value))
            if micros is not None:
                stored[STORED_POSTED] = micros
                continue
        stored[STORED_NAMES.get(name, name)] = value
    return stored


def holds_judged_fields(fields: Mapping[str, Any]) -> bool:
    """Whether a new status with ``fields`` (as readers know them) holds any of ``HELD_FIELDS``."""
    return any(fields.get(name) is not None for name in HELD_FIELDS)


def names_to_read(names: Sequence[str]) -> list[str]:
    """What to ``HMGET`` for the fields ``names`` (not ``id``) of a hash of either layout: the stored name of
    each, then each name as it is; ``picked`` reads the reply."""
    return [STORED_POSTED if name == POSTED else STORED_NAMES.get(name, name) for name in names] + list(names)


def picked(names: Sequence[str], values: Sequence[str | None]) -> dict[str, str]:
    """The fields ``names`` a status has, as readers know them, from ``HMGET`` of ``names_to_read(names)``."""
    count = len(names)
    fields: dict[str, str] = {}
    for index, name in enumerate(names):
        stored, as_named = values[index], values[count + index]
        if stored is not None and name == POSTED:
            fields[name] = repr(int(stored) / _MICROS)
        elif stored is not None or as_named is not None:
            fields[name] = stored if stored is not None else as_named  # type: ignore[assignment]
    return fields


def from_stored(status_id: int | str, stored: Mapping[str, str]) -> dict[str, str]:
    """A status hash as readers know it, from what ``HGETALL`` of ``status:{status_id}`` returned (``{}`` for
    a missing status). Hashes of either layout give the same result."""
    if not stored or "id" in stored:
        return dict(stored)  # missing, or written before this layout
    fields: dict[str, str] = {}
    for stored_name, value in stored.items():
        if stored_name == STORED_POSTED:
            fields[POSTED] = repr(int(value) / _MICROS)
        else:
            fields[_READ_NAMES.get(stored_name, stored_name)] = value
        if stored_name in (STORED_POSTED, POSTED):
            fields["id"] = str(status_id)
    if "id" not in fields:
        fields["id"] = str(status_id)
    return fields

"""Read markers: where a person last stopped reading their home in an app (the client API's
``/api/v1/markers``; the notifications' marker is the read mark of ``services.notifications``)."""

from __future__ import annotations

import time

from timelines import exceptions, store, validation
from timelines.records import ReadMarker


def set_home_marker(*, uid: int, last_read_id: int) -> ReadMarker:
    """Move ``uid``'s home marker to ``last_read_id`` (any status id: an app may move it back, as Mastodon
    allows) and return it. Raises ``UnknownUser``, or ``ValueError`` for an id that is not one."""
    last_read_id = validation.parse_int(str(last_read_id))
    if not store.users.get_user(uid):
        raise exceptions.UnknownUser()
    return ReadMarker.from_hash(store.markers.set_home_marker(uid, last_read_id, time.time()))

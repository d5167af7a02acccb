"""Reading the home's read marker (``services.markers``)."""

from __future__ import annotations

from timelines import store
from timelines.records import ReadMarker


def get_home_marker(*, uid: int) -> ReadMarker | None:
    """``uid``'s home marker, or None when no app ever set one. One round trip."""
    fields = store.markers.home_marker(uid)
    return ReadMarker.from_hash(fields) if fields.get("last_read_id") else None

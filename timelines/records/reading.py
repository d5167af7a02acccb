"""The records of where a reader is: what a search found, and where a person last stopped reading a timeline.
Nothing here queries anything."""

from __future__ import annotations

from dataclasses import dataclass

from timelines.records.people import User
from timelines.records.statuses import TimelineEntry


@dataclass(frozen=True, slots=True)
class SearchResults:
    """What a search found (``selectors.search``): people and tags by prefix (first page only), posts with
    every word, newest first, and the cursor of the next page of posts (None when there is none)."""

    query: str
    users: tuple[User, ...]
    tags: tuple[str, ...]
    statuses: tuple[TimelineEntry, ...]
    next_max_id: int | None = None


@dataclass(frozen=True, slots=True)
class ReadMarker:
    """Where a person last stopped reading a timeline in an app (Mastodon's Marker): the id read up to, how many
    times it moved, and when it last did."""

    last_read_id: int
    version: int
    updated: float

    @classmethod
    def from_hash(cls, fields: dict[str, str]) -> ReadMarker:
        return cls(int(fields["last_read_id"]), int(fields.get("version", 0)), float(fields.get("updated", 0)))

"""Plain records the selectors hand to views, templates and API callers: nothing here queries anything.

Each record is built from the hash Redis returned (``from_hash``) and is immutable. One module per concern:
``people`` (a profile), ``statuses`` (posts, their images, versions and timeline entries), ``lists`` and
``reading`` (search results, read markers). Callers import them from here.
"""

from timelines.records.lists import ListChoice, UserList
from timelines.records.people import User
from timelines.records.reading import ReadMarker, SearchResults
from timelines.records.statuses import (
    CORE_STATUS_FIELDS,
    Author,
    MediaItem,
    Status,
    StatusVersion,
    TimelineEntry,
    media_of,
    mention_pairs,
    status_from_hash,
    stored_media,
)

__all__ = [
    "CORE_STATUS_FIELDS",
    "Author",
    "ListChoice",
    "MediaItem",
    "ReadMarker",
    "SearchResults",
    "Status",
    "StatusVersion",
    "TimelineEntry",
    "User",
    "UserList",
    "media_of",
    "mention_pairs",
    "status_from_hash",
    "stored_media",
]

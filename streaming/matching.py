"""How stream events are indexed: the keys under which the hub looks up subscriptions for an event.

An event (a posted or deleted status) is offered to subscriptions registered under any of these keys:

- ``ALL``: every event (firehose-like consumers that want everything);
- ``sample:<n>``: events whose ``id % 100 == n`` (a sample stream registers only the buckets it keeps, so a
  10 % sample is not even offered the other 90 % of events);
- ``author:<uid>``: events by that user;
- ``deletions``: every deleted status (the live pages remove it wherever it stands, before its withdrawal
  passes reach every timeline); ``updates``: every edited status (a live page that was sent it swaps it in);
- ``home:<uid>``, ``list:<id>``: a delivery (``timeline.delivery``) that wrote to that home or list timeline
  (the live pages); ``followers:<uid>``: a post of ``uid`` merged into its followers' homes when read;
- ``login:<login>``: events by that user, replying to them, reposting them, or mentioning ``@login`` (the
  ``follow`` filter);
- ``word:<word>``: events whose message contains that word (the ``track`` filter indexes one word per phrase);
- ``geo:<lat cell>:<lon cell>``: events located in that cell of a ``GEO_CELL_DEGREES`` grid (the ``locations``
  filter registers the cells its boxes touch); ``GEO``: every event carrying a location;
- ``user:<uid>``: notices for one user's pages (``notification.created``: their unread count; ``message.created``:
  a direct message to them), and
  ``MODERATION``: moderation changes (``user.suspended``, ...); only live homes register these.

Words are ``timelines.text.words``: lowercased and split on whitespace; punctuation around a word is ignored,
inside it kept, so "Redis," "(redis)" "#redis" and "redis" are one word while "can't" and "node.js" stay
whole. Track phrases are tokenized by the same ``words`` function, which is what makes the index exact: a
phrase can only match an event that carries its indexed word.

Tokenizing a message costs the same for every subscriber, so on a ``StreamEvent`` it is done once and
cached on the event.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from streaming.events import DeliveryEvent, StreamEvent
from timelines import events as timeline_events
from timelines import text

ALL = "*"
# Every deletion (status.deleted): the live pages take a deleted post away wherever it stands, at once.
DELETIONS = "deletions"
# Every edit (status.updated): a live page that was sent the post swaps the new text in.
UPDATES = "updates"
# Every post merged into homes when read (``followers_of``): a live home that does not know its author yet (an
# account just past the pull threshold) reads again whom it merges.
PULLED = "pulled"
GEO = "geo"
MODERATION = "moderation"
GEO_CELL_DEGREES = 10


def author_key(uid: int) -> str:
    return f"author:{uid}"


def login_key(login: str) -> str:
    return f"login:{login.lower()}"


def word_key(word: str) -> str:
    return f"word:{word}"


def sample_key(bucket: int) -> str:
    return f"sample:{bucket}"


def geo_cell_key(lat_cell: int, lon_cell: int) -> str:
    return f"geo:{lat_cell}:{lon_cell}"


# One tokenizer for the stream filters, the search index and the pages (timelines.text).
words = text.words


def mentions(message: str) -> set[str]:
    """Lowercased logins mentioned as ``@login`` in ``message`` (``timelines.text.mentioned_logins``)."""
    return set(text.mentioned_logins(message))


def _cached(event: dict[str, Any], name: str, compute: Any) -> Any:
    if isinstance(event, StreamEvent):
        if name not in event.cache:
            event.cache[name] = compute()
        return event.cache[name]
    return compute()


def event_words(event: dict[str, Any]) -> set[str]:
    """The words of the event's message (cached on a ``StreamEvent``)."""
    return _cached(event, "words", lambda: words(str(event.get("message", ""))))


def event_logins(event: dict[str, Any]) -> set[str]:
    """Every lowercased login an event concerns for ``follow``: its author, the author it replies to, the
    author of what it reposts, and the logins it mentions (cached on a ``StreamEvent``)."""

    def compute() -> set[str]:
        found = set(event_mentions(event))
        for name in ("login", "in_reply_to_login", "repost_of_login"):
            if event.get(name):
                found.add(str(event[name]).lower())
        return found

    return _cached(event, "logins", compute)


def event_mentions(event: dict[str, Any]) -> set[str]:
    """The logins the event's message mentions (cached on a ``StreamEvent``)."""
    return _cached(event, "mentions", lambda: mentions(str(event.get("message", ""))))


def parse_location(value: object) -> tuple[float, float] | None:
    """The ``(lat, lon)`` of a status's ``location`` field ("lat,lon"), or None when absent or malformed."""
    if not isinstance(value, str) or not value:
        return None
    lat_text, comma, lon_text = value.partition(",")
    try:
        lat, lon = float(lat_text), float(lon_text)
    except ValueError:
        return None
    if not comma or not (math.isfinite(lat) and math.isfinite(lon)):
        return None
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        return None
    return lat, lon


def event_location(event: dict[str, Any]) -> tuple[float, float] | None:
    return _cached(event, "location", lambda: parse_location(event.get("location")))


def _lat_cell(lat: float) -> int:
    return min(math.floor(lat / GEO_CELL_DEGREES), 90 // GEO_CELL_DEGREES - 1)


def _lon_cell(lon: float) -> int:
    return min(math.floor(lon / GEO_CELL_DEGREES), 180 // GEO_CELL_DEGREES - 1)


def geo_cells(lat_min: float, lon_min: float, lat_max: float, lon_max: float) -> Iterator[str]:
    """The keys of every grid cell a box touches (at most 18 x 36 for the whole Earth)."""
    for lat_cell in range(_lat_cell(lat_min), _lat_cell(lat_max) + 1):
        for lon_cell in range(_lon_cell(lon_min), _lon_cell(lon_max) + 1):
            yield geo_cell_key(lat_cell, lon_cell)


def user_key(uid: int) -> str:
    """Notices for one user's pages (their unread notification count). An index key of the hub (in memory),
    not a Redis key."""
    return f"viewer:{uid}"


def event_index_keys(event: dict[str, Any]) -> set[str]:
    """Every index key of one event (see the module docstring)."""
    if isinstance(event, DeliveryEvent):
        return {*event.timelines, PULLED} if event.followers_of is not None else set(event.timelines)
    kind = getattr(event, "type", timeline_events.STATUS_CREATED)
    if kind in timeline_events.NOTIFICATION_TYPES or kind in timeline_events.MESSAGE_TYPES:
        return {user_key(int(event["uid"]))}
    if kind in timeline_events.RELATION_TYPES:
        return {user_key(int(event["uid"]))}
    if kind in timeline_events.USER_TYPES:
        return {MODERATION}
    found = {ALL, sample_key(int(event["id"]) % 100)}
    if kind == timeline_events.STATUS_DELETED:
        found.add(DELETIONS)
    elif kind == timeline_events.STATUS_UPDATED:
        found.add(UPDATES)
    if "uid" in event:
        found.add(author_key(int(event["uid"])))
    found.update(login_key(login) for login in event_logins(event))
    found.update(word_key(word) for word in event_words(event))
    location = event_location(event)
    if location is not None:
        found.add(GEO)
        found.add(geo_cell_key(_lat_cell(location[0]), _lon_cell(location[1])))
    return found

"""Stream filters (book listings 8.16 to 8.20, fixed and validated): which events a streaming client receives.

One class per predicate, each knowing its exact test (``__call__``) and the hub index keys under which it must
be offered events (``index_keys``, see ``streaming.matching``), so a post is only checked against filters that
could match it:

- ``SampleFilter``: ``id % 100`` in the first ``percent`` entries of ``range(100)`` shuffled with the client's
  identifier as seed (listing 8.17). The shuffle is a Fisher-Yates driven by ``random.Random(seed).random()``
  with an integer seed taken from SHA-256 of the identifier: both are stable across processes, restarts and
  Python versions (unlike ``hash()``, which is salted per process, and ``random.shuffle``, whose algorithm is
  not promised to stay), so one identifier keeps its sample, and sees the deletions of what it was sent.
- ``TrackFilter``: comma-separated phrases; a phrase matches when every one of its words is in the message
  (listing 8.18), with the tokenization of ``matching.words``.
- ``FollowFilter``: logins; posts by them, replies to their posts, their reposts and reposts of their posts
  (as Twitter's ``follow``), and posts mentioning ``@login`` (listing 8.19).
- ``LocationFilter``: boxes ``lon_min,lat_min,lon_max,lat_max`` containing the status's ``location``
  (listing 8.20, whose stray ``self`` is gone).
- ``AnyOf``: several predicates of one request, ORed as Twitter did (the book kept only the last one).

Deletions are matched like posts: the deleted event carries the whole status, so a client gets
``{"id": ..., "deleted": true}`` exactly for the statuses this filter would have sent it.

``parse_sample`` and ``parse_filter`` turn request parameters into a filter or raise ``FilterError`` with one
of the messages below; the consumers map it to a 400.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from streaming import matching
from timelines import limits, validation

DEFAULT_PERCENT = 10
MAX_TRACK_PHRASES = 400
MAX_TRACK_PHRASE_LENGTH = 60
MAX_FOLLOW_LOGINS = 5000
MAX_LOCATION_BOXES = 25

PERCENT_INVALID = "percent must be a whole number from 1 to 100."
NO_PREDICATE = "Give at least one of track, follow or locations."
TOO_MANY_PHRASES = f"track takes at most {MAX_TRACK_PHRASES} phrases."
PHRASE_TOO_LONG = f"A track phrase is at most {MAX_TRACK_PHRASE_LENGTH} characters."
PHRASE_WITHOUT_WORDS = "A track phrase must contain a word: {phrase!r}."
TOO_MANY_LOGINS = f"follow takes at most {MAX_FOLLOW_LOGINS} logins."
LOGIN_INVALID = "follow takes logins (letters, digits and _, up to {length} characters): {login!r}."
TOO_MANY_BOXES = f"locations takes at most {MAX_LOCATION_BOXES} boxes."
BOXES_MALFORMED = "locations takes groups of four numbers: lon_min,lat_min,lon_max,lat_max."
BOX_OUT_OF_RANGE = "A box must lie within longitudes -180..180 and latitudes -90..90, minimum first: {box}."

_LOGIN = re.compile(limits.LOGIN_PATTERN)


class FilterError(ValueError):
    """Parameters that do not make a valid filter; the message is safe to show to the client."""


class StreamFilter(Protocol):
    def index_keys(self) -> set[str]: ...

    def __call__(self, event: dict[str, Any]) -> bool: ...


# --- the predicates ---------------------------------------------------------------------------------------


def sample_buckets(identifier: str, percent: int) -> frozenset[int]:
    """The ``id % 100`` values a sample of ``percent`` keeps for ``identifier`` (book listing 8.17)."""
    seed = int.from_bytes(hashlib.sha256(identifier.encode()).digest(), "big")
    rng = random.Random(seed)
    order = list(range(100))
    for i in range(len(order) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return frozenset(order[: max(1, min(percent, 100))])


@dataclass(frozen=True, slots=True)
class SampleFilter:
    identifier: str
    percent: int
    buckets: frozenset[int]

    @classmethod
    def create(cls, identifier: str, percent: int) -> SampleFilter:
        return cls(identifier, percent, sample_buckets(identifier, percent))

    def index_keys(self) -> set[str]:
        return {matching.sample_key(bucket) for bucket in self.buckets}

    def __call__(self, event: dict[str, Any]) -> bool:
        return int(event["id"]) % 100 in self.buckets


@dataclass(frozen=True, slots=True)
class TrackFilter:
    # Each phrase as its set of words; a message matches when it contains every word of one phrase.
    phrases: tuple[frozenset[str], ...]

    def index_keys(self) -> set[str]:
        # One word per phrase is enough, since a match needs all of them; the longest is likely the rarest,
        # which keeps the filter out of the candidates for common words.
        return {matching.word_key(max(sorted(phrase), key=len)) for phrase in self.phrases}

    def __call__(self, event: dict[str, Any]) -> bool:
        message_words = matching.event_words(event)
        return any(phrase <= message_words for phrase in self.phrases)


@dataclass(frozen=True, slots=True)
class FollowFilter:
    logins: frozenset[str]  # lowercased

    def index_keys(self) -> set[str]:
        return {matching.login_key(login) for login in self.logins}

    def __call__(self, event: dict[str, Any]) -> bool:
        # As Twitter's follow: posts by them, replies to their posts, their reposts and reposts of their
        # posts, and (the book's) posts mentioning them.
        return not self.logins.isdisjoint(matching.event_logins(event))


@dataclass(frozen=True, slots=True)
class Box:
    lon_min: float
    lat_min: float
    lon_max: float
    lat_max: float

    def contains(self, lat: float, lon: float) -> bool:
        return self.lat_min <= lat <= self.lat_max and self.lon_min <= lon <= self.lon_max


@dataclass(frozen=True, slots=True)
class LocationFilter:
    boxes: tuple[Box, ...]

    def index_keys(self) -> set[str]:
        found: set[str] = set()
        for box in self.boxes:
            found.update(matching.geo_cells(box.lat_min, box.lon_min, box.lat_max, box.lon_max))
        return found

    def __call__(self, event: dict[str, Any]) -> bool:
        location = matching.event_location(event)
        if location is None:
            return False
        lat, lon = location
        return any(box.contains(lat, lon) for box in self.boxes)


@dataclass(frozen=True, slots=True)
class AnyOf:
    filters: tuple[StreamFilter, ...]

    def index_keys(self) -> set[str]:
        found: set[str] = set()
        for one in self.filters:
            found |= one.index_keys()
        return found

    def __call__(self, event: dict[str, Any]) -> bool:
        return any(one(event) for one in self.filters)


# --- parsing request parameters ------------------------------------------------------------------------------


def parse_sample(percent: str | None) -> int:
    """The sample percentage from the ``percent`` parameter (default ``DEFAULT_PERCENT``)."""
    if percent is None or percent.strip() == "":
        return DEFAULT_PERCENT
    try:
        return validation.parse_int(percent.strip(), minimum=1, maximum=100)
    except ValueError:
        raise FilterError(PERCENT_INVALID) from None


def _items(values: Iterable[str]) -> list[str]:
    """Comma-separated items of every value of one parameter, blanks dropped."""
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def parse_track(values: Iterable[str]) -> TrackFilter | None:
    phrases: dict[frozenset[str], None] = {}
    for phrase in _items(values):
        if len(phrase) > MAX_TRACK_PHRASE_LENGTH:
            raise FilterError(PHRASE_TOO_LONG)
        phrase_words = frozenset(matching.words(phrase))
        if not phrase_words:
            raise FilterError(PHRASE_WITHOUT_WORDS.format(phrase=phrase))
        phrases[phrase_words] = None
        if len(phrases) > MAX_TRACK_PHRASES:
            raise FilterError(TOO_MANY_PHRASES)
    return TrackFilter(tuple(phrases)) if phrases else None


def parse_follow(values: Iterable[str]) -> FollowFilter | None:
    logins: set[str] = set()
    for item in _items(values):
        login = item.removeprefix("@")
        if len(login) > limits.MAX_LOGIN_LENGTH or not _LOGIN.fullmatch(login):
            raise FilterError(LOGIN_INVALID.format(length=limits.MAX_LOGIN_LENGTH, login=item[:40]))
        logins.add(login.lower())
        if len(logins) > MAX_FOLLOW_LOGINS:
            raise FilterError(TOO_MANY_LOGINS)
    return FollowFilter(frozenset(logins)) if logins else None


def parse_locations(values: Iterable[str]) -> LocationFilter | None:
    numbers: list[float] = []
    for item in _items(values):
        try:
            number = float(item)
        except ValueError:
            raise FilterError(BOXES_MALFORMED) from None
        if not math.isfinite(number):
            raise FilterError(BOXES_MALFORMED)
        numbers.append(number)
        if len(numbers) > 4 * MAX_LOCATION_BOXES:
            raise FilterError(TOO_MANY_BOXES)
    if len(numbers) % 4:
        raise FilterError(BOXES_MALFORMED)
    boxes = []
    for start in range(0, len(numbers), 4):
        box = Box(*numbers[start : start + 4])
        if not (-180 <= box.lon_min <= box.lon_max <= 180 and -90 <= box.lat_min <= box.lat_max <= 90):
            raise FilterError(BOX_OUT_OF_RANGE.format(box=",".join(f"{n:g}" for n in numbers[start : start + 4])))
        boxes.append(box)
    return LocationFilter(tuple(dict.fromkeys(boxes))) if boxes else None


def parse_filter(params: Mapping[str, Sequence[str]]) -> StreamFilter:
    """The filter of a ``filter.json`` request from its parameters (``track``, ``follow``, ``locations`` and the
    book's ``location``), ORed. Raises ``FilterError`` when one is malformed or over its limit, or none is given.
    """
    predicates: list[StreamFilter] = []
    track = parse_track(params.get("track", ()))
    follow = parse_follow(params.get("follow", ()))
    locations = parse_locations([*params.get("locations", ()), *params.get("location", ())])
    for predicate in (track, follow, locations):
        if predicate is not None:
            predicates.append(predicate)
    if not predicates:
        raise FilterError(NO_PREDICATE)
    return predicates[0] if len(predicates) == 1 else AnyOf(tuple(predicates))

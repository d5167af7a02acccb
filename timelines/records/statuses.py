"""The records of posts: a status (``Status``, also a read-only mapping of its stored fields, as statuses were
plain dicts before it existed: scripts written against the Python API keep working, and templates read either
form), its images (``MediaItem``) and a status as a timeline shows it (``TimelineEntry``). Nothing here queries
anything."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from timelines import visibility as _visibility

# Fields every status hash has; anything else came in as extra data (book listing 8.2's **data).
CORE_STATUS_FIELDS = ("id", "uid", "login", "name", "message", "posted")


@dataclass(frozen=True, slots=True)
class MediaItem:
    """One image of a post, as its status hash keeps it for display (``media``, a JSON list written once when
    the post is made): the attachment's id (the reference to its SQL record, ``media.models.Attachment``, which
    owns the files and is what serving checks), its URL token, sizes, alt text, blurhash and focal point."""

    id: int
    token: str
    width: int
    height: int
    preview_width: int
    preview_height: int
    description: str = ""
    blurhash: str = ""
    focus_x: float = 0.0
    focus_y: float = 0.0
    type: str = "image"
    # Another server's image (a remote post's attachment): its address there. With a ``token`` it is cached here
    # (federation fetches it in a job); without one (posts stored before images were cached) pages link to it.
    remote_url: str = ""

    @property
    def url(self) -> str:
        return f"/media/{self.token}/original" if self.token else self.remote_url

    @property
    def preview_url(self) -> str:
        return f"/media/{self.token}/preview" if self.token else self.remote_url

    @property
    def linked_only(self) -> bool:
        """Another server's image with no copy here: shown as a link to it there, never loaded."""
        return bool(self.remote_url) and not self.token

    @property
    def focus_class(self) -> str:
        """CSS classes placing the focal point of a preview the grid crops (``object-position`` in steps of 10%,
        through ``--fx``/``--fy`` in site.css: the CSP allows no inline style). Empty for the centre."""
        if not (self.focus_x or self.focus_y):
            return ""
        x = round(min(1.0, max(0.0, (self.focus_x + 1) / 2)) * 10)
        y = round(min(1.0, max(0.0, (1 - self.focus_y) / 2)) * 10)
        return f"fx-{x} fy-{y}"

    def as_stored(self) -> dict[str, Any]:
        stored = {
            "id": self.id,
            "token": self.token,
            "w": self.width,
            "h": self.height,
            "pw": self.preview_width,
            "ph": self.preview_height,
            "alt": self.description,
            "blurhash": self.blurhash,
            "focus": [self.focus_x, self.focus_y],
        }
        if self.remote_url:
            stored["remote"] = self.remote_url
        return stored

    @classmethod
    def from_stored(cls, item: Mapping[str, Any]) -> MediaItem:
        focus = item.get("focus") or (0.0, 0.0)
        return cls(
            id=int(item["id"]),
            token=str(item["token"]),
            width=int(item["w"]),
            height=int(item["h"]),
            preview_width=int(item["pw"]),
            preview_height=int(item["ph"]),
            description=str(item.get("alt") or ""),
            blurhash=str(item.get("blurhash") or ""),
            focus_x=float(focus[0]),
            focus_y=float(focus[1]),
            remote_url=str(item.get("remote") or ""),
        )


def stored_media(items: Any) -> str:
    """The ``media`` field of a status hash for ``items`` (``MediaItem``s)."""
    return json.dumps([item.as_stored() for item in items], separators=(",", ":"), ensure_ascii=False)


def media_of(value: Any) -> tuple[MediaItem, ...]:
    """The images of a status hash's ``media`` field (a JSON string as stored, or the list an event carries);
    () for none or for anything malformed."""
    if not value:
        return ()
    try:
        items = json.loads(value) if isinstance(value, str | bytes) else value
        return tuple(MediaItem.from_stored(item) for item in items)
    except (ValueError, TypeError, KeyError, IndexError):
        return ()


@dataclass(frozen=True, slots=True)
class Status(Mapping[str, Any]):
    """A status, as stored in ``status:{id}`` (book listing 8.2): the core fields and the conversation fields
    typed, anything else a caller attached in ``extra``.

    As a mapping it holds the core fields first, then the extra ones (``location``, ...), all as callers saw
    them when statuses were dicts: ``id`` and ``uid`` ints, ``posted`` a float, the rest strings; the typed
    fields below are also readable by name (``status["reply_count"]``).
    """

    id: int
    uid: int
    login: str
    name: str
    message: str
    posted: float
    extra: Mapping[str, str] = field(default_factory=dict)
    in_reply_to: int | None = None
    in_reply_to_uid: int | None = None
    in_reply_to_login: str = ""
    root: int | None = None
    reply_count: int = 0
    repost_count: int = 0
    like_count: int = 0
    mentions: tuple[int, ...] = ()
    mention_logins: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    repost_of: int | None = None
    # Who may see it (``timelines.visibility``): public, unlisted, private or direct. A hash written before
    # visibilities existed reads as private when it carries the older ``private`` flag, else as public.
    visibility: str = _visibility.PUBLIC
    # Its images (at most four), and whether they are hidden behind "Show sensitive content".
    media: tuple[MediaItem, ...] = ()
    sensitive: bool = False
    # Edits (issue 19): when the text last changed (None: never edited) and how many times it did; the earlier
    # versions are read with ``selectors.get_status_history``.
    edited_at: float | None = None
    edits: int = 0

    @classmethod
    def from_hash(cls, fields: Mapping[str, Any]) -> Status:
        # Every status of every page goes through here, so the frozen fields are set through their slots
        # directly: a third of the cost of the generated __init__, with the same result.
        extra = dict(fields)
        status = object.__new__(cls)
        _SET_ID(status, int(extra.pop("id")))
        _SET_UID(status, int(extra.pop("uid")))
        login = str(extra.pop("login"))
        _SET_LOGIN(status, login)
        _SET_NAME(status, str(extra.pop("name", "") or login))
        _SET_MESSAGE(status, str(extra.pop("message")))
        _SET_POSTED(status, float(extra.pop("posted")))
        for name, convert, default in _OPTIONAL:
            value = extra.pop(name, None)
            _SETTERS[name](status, default if value is None or value == "" else convert(value))
        mentions = mention_pairs(status.mentions)
        _SETTERS["mentions"](status, tuple(uid for uid, _ in mentions))
        _SET_MENTION_LOGINS(status, tuple(login for _, login in mentions))
        # Left in ``extra`` too, so the mapping (and ``as_dict``) keeps the field as stored.
        _SET_VISIBILITY(status, _visibility.level(extra.get("visibility"), extra.get("private")))
        # Left in ``extra`` as stored too, like the visibility.
        _SET_MEDIA(status, media_of(extra.get("media")))
        _SET_SENSITIVE(status, bool(extra.get("sensitive")))
        _SET_EXTRA(status, extra)
        return status

    @property
    def entry_id(self) -> int:
        """Its id in a timeline (a status read on its own is its own entry)."""
        return self.id

    @property
    def is_reply(self) -> bool:
        return self.in_reply_to is not None

    @property
    def is_repost(self) -> bool:
        return self.repost_of is not None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.items())

    def with_counts(self, reply_count: int, repost_count: int, like_count: int) -> Status:
        """This status with other counters (the only fields that change after it is written)."""
        status = object.__new__(Status)
        for name in _SLOTS:
            _SLOT_SETTERS[name](status, getattr(self, name))
        _SETTERS["reply_count"](status, reply_count)
        _SETTERS["repost_count"](status, repost_count)
        _SETTERS["like_count"](status, like_count)
        return status

    # Mapping: the stored fields by name.

    def get(self, name: str, default: Any = None) -> Any:
        # Mapping.get would raise and catch a KeyError for every extra field a status lacks ("private", ...).
        if name in _FIELDS:
            return getattr(self, name)
        return self.extra.get(name, default)

    def __getitem__(self, name: str) -> Any:
        if name in _FIELDS:
            return getattr(self, name)
        return self.extra[name]

    def __iter__(self) -> Iterator[str]:
        yield from CORE_STATUS_FIELDS
        yield from self.extra

    def __len__(self) -> int:
        return len(CORE_STATUS_FIELDS) + len(self.extra)

    def __contains__(self, name: object) -> bool:
        return name in _CORE or name in self.extra


def mention_pairs(value: Any) -> tuple[tuple[int, str], ...]:
    """The (uid, login) pairs of a status's stored ``mentions`` field ("uid:login,uid:login")."""
    if not value:
        return ()
    pairs = []
    for item in str(value).split(","):
        uid, _, login = item.partition(":")
        if uid.isdigit():
            pairs.append((int(uid), login))
    return tuple(pairs)


def _csv(value: Any) -> tuple[str, ...]:
    return tuple(item for item in str(value).split(",") if item)


_CORE = frozenset(CORE_STATUS_FIELDS)
# Optional stored fields: (name, conversion of the stored string, value when absent). ``mentions`` is kept as
# its stored text here and split into uids and logins by from_hash.
_OPTIONAL: tuple[tuple[str, Any, Any], ...] = (
    ("in_reply_to", int, None),
    ("in_reply_to_uid", int, None),
    ("in_reply_to_login", str, ""),
    ("root", int, None),
    ("reply_count", int, 0),
    ("repost_count", int, 0),
    ("like_count", int, 0),
    ("mentions", str, ""),
    ("tags", _csv, ()),
    ("repost_of", int, None),
    ("edited_at", float, None),
    ("edits", int, 0),
)
_SETTERS = {name: Status.__dict__[name].__set__ for name, _, _ in _OPTIONAL}
_SLOTS = tuple(Status.__dataclass_fields__)
_SLOT_SETTERS = {name: Status.__dict__[name].__set__ for name in _SLOTS}
_FIELDS = frozenset(name for name in Status.__dataclass_fields__ if name != "extra")
_SET_VISIBILITY = Status.__dict__["visibility"].__set__
_SET_MEDIA = Status.__dict__["media"].__set__
_SET_SENSITIVE = Status.__dict__["sensitive"].__set__
_SET_ID, _SET_UID, _SET_LOGIN, _SET_NAME, _SET_MESSAGE, _SET_POSTED, _SET_EXTRA, _SET_MENTION_LOGINS = (
    Status.__dict__[name].__set__ for name in (*CORE_STATUS_FIELDS, "extra", "mention_logins")
)


@dataclass(frozen=True, slots=True)
class Author:
    """Who reposted an entry of a timeline (or acted on a notification): enough to name and link them."""

    id: int
    login: str
    name: str


@dataclass(frozen=True, slots=True)
class TimelineEntry(Mapping[str, Any]):
    """One entry of a timeline as a viewer sees it: the status to show (the original, for a repost), who
    reposted it when it came through a repost, and whether the viewer liked, reposted or bookmarked it.

    As a mapping it reads like its status (``entry["id"]`` is the shown status's id), so callers of the
    Python API that treated timeline pages as lists of status dicts keep working.
    """

    status: Status
    reposted_by: Author | None = None
    repost_id: int | None = None
    liked: bool = False
    reposted: bool = False
    # The repost itself as stored, when the entry came through one and it was read: the policy judges it too.
    repost: Status | None = None
    bookmarked: bool = False

    @classmethod
    def make(
        cls,
        status: Status,
        reposted_by: Author | None,
        repost_id: int | None,
        liked: bool,
        reposted: bool,
        repost: Status | None = None,
        bookmarked: bool = False,
    ) -> TimelineEntry:
        """The entry, built without the generated ``__init__`` (a page builds dozens; same result)."""
        entry = object.__new__(cls)
        _SET_ENTRY_STATUS(entry, status)
        _SET_ENTRY_BY(entry, reposted_by)
        _SET_ENTRY_REPOST(entry, repost_id)
        _SET_ENTRY_LIKED(entry, liked)
        _SET_ENTRY_REPOSTED(entry, reposted)
        _SET_ENTRY_REPOST_STATUS(entry, repost)
        _SET_ENTRY_BOOKMARKED(entry, bookmarked)
        return entry

    @property
    def entry_id(self) -> int:
        """The id this entry has in its timeline (the repost's, for a repost): what cursors page by."""
        return self.repost_id if self.repost_id is not None else self.status.id

    def __getattr__(self, name: str) -> Any:
        return getattr(self.status, name)

    def __getitem__(self, name: str) -> Any:
        if name == "reposted_by":
            return self.reposted_by
        return self.status[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.status)

    def __len__(self) -> int:
        return len(self.status)

    def __contains__(self, name: object) -> bool:
        return name in self.status


(
    _SET_ENTRY_STATUS,
    _SET_ENTRY_BY,
    _SET_ENTRY_REPOST,
    _SET_ENTRY_LIKED,
    _SET_ENTRY_REPOSTED,
    _SET_ENTRY_REPOST_STATUS,
    _SET_ENTRY_BOOKMARKED,
) = (
    TimelineEntry.__dict__[name].__set__
    for name in ("status", "reposted_by", "repost_id", "liked", "reposted", "repost", "bookmarked")
)


def status_from_hash(fields: Mapping[str, Any]) -> Status:
    """The ``Status`` of a stored hash (kept for callers of the earlier dict-returning helper)."""
    return Status.from_hash(fields)


@dataclass(frozen=True, slots=True)
class StatusVersion:
    """One version of a status's text (``selectors.get_status_history``): what it said, since when (the post's
    time for the first version, the edit's for the others), the logins it mentioned (linked when shown), and
    whether it is the current one."""

    message: str
    time: float
    mention_logins: tuple[str, ...] = ()
    current: bool = False
    # Its images then (issue 21), with their alt texts then, hidden as the post's are when it is sensitive.
    media: tuple[MediaItem, ...] = ()
    sensitive: bool = False

"""Plain records the selectors hand to views, templates and API callers: nothing here queries anything.

Each record is built from the hash Redis returned (``from_hash``) and is immutable. ``Status`` is also a
read-only mapping of its stored fields (``status["id"]``, ``status.get("location")``), as statuses were plain
dicts before it existed: scripts written against the Python API keep working, and templates read either form.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

# Fields every status hash has; anything else came in as extra data (book listing 8.2's **data).
CORE_STATUS_FIELDS = ("id", "uid", "login", "name", "message", "posted")


@dataclass(frozen=True, slots=True)
class User:
    """A user's public profile, as stored in ``user:{uid}`` (book figure 8.1)."""

    id: int
    login: str
    name: str
    followers: int
    following: int
    posts: int
    signup: float
    lists: int = 0
    listed: int = 0
    bio: str = ""
    bio_mentions: tuple[str, ...] = ()  # lowercased logins of the users the bio mentions (linked when shown)

    @classmethod
    def from_hash(cls, fields: dict[str, str]) -> User:
        return cls(
            id=int(fields["id"]),
            login=fields["login"],
            name=fields.get("name") or fields["login"],
            followers=int(fields.get("followers", 0)),
            following=int(fields.get("following", 0)),
            posts=int(fields.get("posts", 0)),
            signup=float(fields.get("signup", 0.0)),
            lists=int(fields.get("lists", 0)),
            listed=int(fields.get("listed", 0)),
            bio=fields.get("bio", ""),
            bio_mentions=tuple(login for login in fields.get("bio_mentions", "").split(",") if login),
        )


@dataclass(frozen=True, slots=True)
class Status(Mapping[str, Any]):
    """A status, as stored in ``status:{id}`` (book listing 8.2): the core fields typed, the rest in ``extra``.

    As a mapping it holds the core fields first, then the extra ones (``location``, ...), all as callers saw
    them when statuses were dicts: ``id`` and ``uid`` ints, ``posted`` a float, the rest strings.
    """

    id: int
    uid: int
    login: str
    name: str
    message: str
    posted: float
    extra: Mapping[str, str] = field(default_factory=dict)

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
        _SET_EXTRA(status, extra)
        return status

    def as_dict(self) -> dict[str, Any]:
        return dict(self.items())

    # Mapping: the stored fields by name.

    def __getitem__(self, name: str) -> Any:
        if name in _CORE:
            return getattr(self, name)
        return self.extra[name]

    def __iter__(self) -> Iterator[str]:
        yield from CORE_STATUS_FIELDS
        yield from self.extra

    def __len__(self) -> int:
        return len(CORE_STATUS_FIELDS) + len(self.extra)

    def __contains__(self, name: object) -> bool:
        return name in _CORE or name in self.extra


_CORE = frozenset(CORE_STATUS_FIELDS)
_SET_ID, _SET_UID, _SET_LOGIN, _SET_NAME, _SET_MESSAGE, _SET_POSTED, _SET_EXTRA = (
    Status.__dict__[name].__set__ for name in (*CORE_STATUS_FIELDS, "extra")
)


def status_from_hash(fields: Mapping[str, Any]) -> Status:
    """The ``Status`` of a stored hash (kept for callers of the earlier dict-returning helper)."""
    return Status.from_hash(fields)


@dataclass(frozen=True, slots=True)
class UserList:
    """A named list of users, as stored in ``list:{id}`` (the book's exercise "Lists of users")."""

    id: int
    uid: int
    login: str
    name: str
    members: int
    created: float

    @classmethod
    def from_hash(cls, fields: dict[str, str]) -> UserList:
        return cls(
            id=int(fields["id"]),
            uid=int(fields["uid"]),
            login=fields.get("login", ""),
            name=fields["name"],
            members=int(fields.get("members", 0)),
            created=float(fields.get("created", 0.0)),
        )


@dataclass(frozen=True, slots=True)
class SearchResults:
    """What a search found (``selectors.search``): people and tags by prefix (first page only), posts with
    every word, newest first, and the cursor of the next page of posts (None when there is none)."""

    query: str
    users: tuple[User, ...]
    tags: tuple[str, ...]
    statuses: tuple[Status, ...]
    next_max_id: int | None = None


@dataclass(frozen=True, slots=True)
class ListChoice:
    """One of a viewer's lists in the list picker on a profile, and whether that profile is in it."""

    list: UserList
    is_member: bool

"""Plain records the selectors hand to views, templates and API callers: nothing here queries anything."""

from __future__ import annotations

from dataclasses import dataclass

# Fields every status hash has; anything else came in as extra data (book listing 8.2's **data).
CORE_STATUS_FIELDS = frozenset({"id", "uid", "login", "name", "message", "posted"})


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
        )


def status_from_hash(fields: dict[str, str]) -> dict[str, object]:
    """A status as callers see it: the stored hash with ``id``/``uid`` as ints and ``posted`` as a float.

    Converts ``fields`` in place (it is the fresh dict redis-py returned) and returns it: this runs for every
    status of every page read.
    """
    status: dict[str, object] = fields  # type: ignore[assignment]
    status["id"] = int(fields["id"])
    status["uid"] = int(fields["uid"])
    status["posted"] = float(fields["posted"])
    return status


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
class ListChoice:
    """One of a viewer's lists in the list picker on a profile, and whether that profile is in it."""

    list: UserList
    is_member: bool

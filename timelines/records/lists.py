"""The records of people's lists (the book's exercise "Lists of users"): a list, and one of a viewer's lists as
the list picker shows it. Nothing here queries anything."""

from __future__ import annotations

from dataclasses import dataclass


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

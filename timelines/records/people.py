"""The record of a person's public profile (``User``), built from the hash Redis returned: nothing here queries
anything."""

from __future__ import annotations

from dataclasses import dataclass

from timelines import visibility as _visibility


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
    private: bool = False  # only approved followers see its posts (timelines.privacy)
    suspended: bool = False  # the moderators suspended it: nothing of it shows to anyone (timelines.privacy)
    # What the post box starts on (timelines.visibility): the account's choice, "private" for a private account
    # whose choice it may not use.
    default_visibility: str = _visibility.PUBLIC
    # The server of another server's account (issue 22's federation; timelines.uris); None for a local one.
    domain: str | None = None
    # The URL tokens of the avatar and header pictures (``media``), "" for none.
    avatar: str = ""
    header: str = ""
    # Another server's account: the counts its server gives (its collections' ``totalItems``, read when its
    # actor is fetched: federation.services.remote_profiles), None when not known.
    remote_followers: int | None = None
    remote_following: int | None = None
    remote_posts: int | None = None

    @property
    def followers_count(self) -> int:
        """The followers shown: its server's count for another server's account (as Mastodon shows), else the
        followers here."""
        return self.remote_followers if self.remote_followers is not None else self.followers

    @property
    def following_count(self) -> int:
        return self.remote_following if self.remote_following is not None else self.following

    @property
    def posts_count(self) -> int:
        return self.remote_posts if self.remote_posts is not None else self.posts

    @property
    def acct(self) -> str:
        """``login`` here, ``login@domain`` for another server's account (Mastodon's ``acct``)."""
        return f"{self.login}@{self.domain}" if self.domain else self.login

    @property
    def local(self) -> bool:
        return self.domain is None

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
            private=bool(fields.get("private")),
            suspended=bool(fields.get("suspended")),
            default_visibility=_visibility.default_level(
                account_default=fields.get("default_visibility"), account_private=bool(fields.get("private"))
            ),
            domain=fields.get("domain") or None,
            avatar=fields.get("avatar") or "",
            header=fields.get("header") or "",
            remote_followers=_count(fields.get("remote_followers")),
            remote_following=_count(fields.get("remote_following")),
            remote_posts=_count(fields.get("remote_posts")),
        )


def _count(value: str | None) -> int | None:
    return int(value) if value is not None and value.isdigit() else None

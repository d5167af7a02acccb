"""The four visibilities of a post (Mastodon's), their labels, and the rules about choosing one.

- ``public``: everywhere.
- ``unlisted``: the author's profile, followers' homes and lists, threads and direct links; never the public
  listings (tag timelines, trending tags, the public streams) nor the search results of people who do not
  follow the author.
- ``private`` ("Followers only"): the author's approved followers, everywhere.
- ``direct`` ("Mentioned people only"): the author and the people the post mentions, wherever they look.

Who may see what is decided by the per-recipient policy (``timelines.privacy``); this module only names the
levels, reads a status's level from its stored fields and says which levels an author may pick.

A status stores its level in the ``visibility`` field when it is not public. Statuses written before
visibilities existed have no such field: they read as ``private`` when they carry the old ``private`` flag
(written while the author's account was private), else as ``public``, so old data needs no rewrite.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from timelines import exceptions

PUBLIC = "public"
UNLISTED = "unlisted"
PRIVATE = "private"
DIRECT = "direct"

# Widest first: a level's index grows as its audience shrinks.
LEVELS = (PUBLIC, UNLISTED, PRIVATE, DIRECT)
LABELS = {
    PUBLIC: "Public",
    UNLISTED: "Unlisted",
    PRIVATE: "Followers only",
    DIRECT: "Mentioned people only",
}
# What a private (locked) account may pick: its posts never reach strangers.
PRIVATE_ACCOUNT_LEVELS = (PRIVATE, DIRECT)
# Only these can be reposted (Mastodon): a repost of anything narrower would carry it past its audience.
REPOSTABLE = frozenset({PUBLIC, UNLISTED})

_TRUE = {"1", "true", 1}


def of_status(fields: Mapping[str, Any]) -> str:
    """The visibility of a status from its stored fields (a hash as read, an event's status, or a ``Status``):
    its ``visibility`` field, else ``private`` for a status carrying the older ``private`` flag, else
    ``public``."""
    return level(fields.get("visibility"), fields.get("private"))


def level(stored: object, private_flag: object = None) -> str:
    """The visibility of a status whose ``visibility`` field is ``stored`` and ``private`` field
    ``private_flag`` (each None when absent)."""
    if stored in LEVELS:
        return str(stored)
    return PRIVATE if private_flag in _TRUE else PUBLIC


def mentioned_uids(fields: Mapping[str, Any]) -> frozenset[int]:
    """The uids a status mentions, who alone may see it when it is ``direct``: a ``Status``'s typed
    ``mentions``, or the stored ``uid:login`` pairs (``records.mention_pairs``)."""
    value = fields.get("mentions")
    if isinstance(value, tuple):
        return frozenset(value)
    uids = (item.partition(":")[0] for item in str(value or "").split(","))
    return frozenset(int(uid) for uid in uids if uid.isdigit())


def is_narrower(level: str, than: str) -> bool:
    """Whether ``level`` reaches fewer people than ``than``."""
    return LEVELS.index(level) > LEVELS.index(than)


def allowed_levels(*, account_private: bool, replying_to: str | None = None) -> tuple[str, ...]:
    """The levels an author may pick: a private account only ``private`` and ``direct``; a reply nothing
    wider than the post it answers."""
    levels = PRIVATE_ACCOUNT_LEVELS if account_private else LEVELS
    if replying_to is not None:
        levels = tuple(level for level in levels if not is_narrower(replying_to, level))
    return levels


def default_level(*, account_default: str | None, account_private: bool, replying_to: str | None = None) -> str:
    """The level the post box starts on: the account's default (``private`` for a private account that has
    none it may use), narrowed to the post answered when it is narrower."""
    allowed = allowed_levels(account_private=account_private)
    level = account_default if account_default in allowed else allowed[0]
    if replying_to is not None and is_narrower(replying_to, level):
        level = replying_to
    return level


def check(level: object, *, account_private: bool, replying_to: str | None = None) -> str:
    """``level`` if the author may pick it; raises ``InvalidVisibility`` (with the reason) otherwise."""
    if level not in LEVELS:
        raise exceptions.InvalidVisibility()
    if account_private and level not in PRIVATE_ACCOUNT_LEVELS:
        raise exceptions.InvalidVisibility(exceptions.PRIVATE_ACCOUNT_VISIBILITY)
    if replying_to is not None and is_narrower(replying_to, str(level)):
        raise exceptions.InvalidVisibility(
            exceptions.REPLY_TOO_WIDE.format(level=LABELS[replying_to], chosen=LABELS[str(level)])
        )
    return str(level)

"""OAuth scopes as Mastodon defines them: ``read``, ``write``, ``follow``, ``push``, ``profile`` and the granular
``read:*`` / ``write:*`` ones, and the one question every endpoint asks: does a token's scope grant this one?

A top-level scope grants all of its granular ones (``read`` grants ``read:statuses``); ``follow`` is Mastodon's
legacy bundle of the follow, block and mute scopes. Scopes travel as space-separated text ("read write:statuses").
"""

from __future__ import annotations

READ = "read"
WRITE = "write"
FOLLOW = "follow"
PUSH = "push"
PROFILE = "profile"

READ_SCOPES = frozenset(
    f"read:{name}"
    for name in (
        "accounts",
        "blocks",
        "bookmarks",
        "favourites",
        "filters",
        "follows",
        "lists",
        "mutes",
        "notifications",
        "search",
        "statuses",
    )
)
WRITE_SCOPES = frozenset(
    f"write:{name}"
    for name in (
        "accounts",
        "blocks",
        "bookmarks",
        "conversations",
        "favourites",
        "filters",
        "follows",
        "lists",
        "media",
        "mutes",
        "notifications",
        "reports",
        "statuses",
    )
)
# Mastodon's deprecated "follow": what it grants, kept because many clients still ask for it.
FOLLOW_GRANTS = frozenset({"read:blocks", "write:blocks", "read:follows", "write:follows", "read:mutes", "write:mutes"})
KNOWN = frozenset({READ, WRITE, FOLLOW, PUSH, PROFILE}) | READ_SCOPES | WRITE_SCOPES
DEFAULT = (READ,)
MAX_LENGTH = 2000


class InvalidScope(ValueError):
    """A scope text that names an unknown scope."""


def parse(text: object, *, default: tuple[str, ...] = DEFAULT) -> tuple[str, ...]:
    """The scopes of a space- (or, as some clients send them, plus- or comma-) separated text, in order,
    without repeats; ``default`` when it is empty. Raises ``InvalidScope`` for an unknown one."""
    if text is None:
        return default
    if not isinstance(text, str) or len(text) > MAX_LENGTH:
        raise InvalidScope("The requested scope is invalid, unknown, or malformed.")
    names = [name for name in text.replace("+", " ").replace(",", " ").split() if name]
    if not names:
        return default
    unknown = [name for name in names if name not in KNOWN]
    if unknown:
        raise InvalidScope("The requested scope is invalid, unknown, or malformed.")
    return tuple(dict.fromkeys(names))


def grants(held: tuple[str, ...] | frozenset[str] | set[str], wanted: str) -> bool:
    """Whether scopes ``held`` grant ``wanted`` (a top-level or granular scope)."""
    if wanted in held:
        return True
    top, _, _ = wanted.partition(":")
    if top != wanted and top in held:
        return True
    return FOLLOW in held and wanted in FOLLOW_GRANTS


def within(requested: tuple[str, ...], allowed: tuple[str, ...]) -> bool:
    """Whether every scope of ``requested`` is granted by the ``allowed`` ones (an app's registered scopes)."""
    return all(grants(allowed, scope) for scope in requested)


def text(scopes: tuple[str, ...]) -> str:
    return " ".join(scopes)

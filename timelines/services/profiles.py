"""Editing a profile (issue 10): display name and bio, with the bio's mentions resolved and the people
index kept right; and the default visibility of new posts (issue 19)."""

from __future__ import annotations

from timelines import exceptions, hooks, store, text
from timelines import visibility as visibilities
from timelines.services.discovery import rename_user
from timelines.services.users import require_user
from timelines.validation import clean_bio, clean_name


def update_profile(
    *, uid: int, name: str | None = None, bio: str | None = None, default_visibility: str | None = None
) -> bool:
    """Change ``uid``'s display name, bio and/or default post visibility (None leaves it as it is); True if
    anything changed.

    The bio's ``@login`` mentions of existing users are stored beside it (``bio_mentions``, lowercased logins)
    so a page can link them without a lookup. The fields are written in one step that refuses a user who is
    gone, and a new name then replaces the old one in the people index. Statuses keep the name their author
    had when posting. ``default_visibility`` is what the post box starts on (``timelines.visibility``): a
    private account may only choose ``private`` or ``direct``. Raises ``InvalidName``, ``InvalidBio``,
    ``InvalidVisibility`` or ``UnknownUser``; nothing is written on error.
    """
    fields: dict[str, str] = {}
    if name is not None:
        fields["name"] = clean_name(name)
    if bio is not None:
        fields["bio"] = clean_bio(bio)
    if default_visibility is not None and default_visibility not in visibilities.LEVELS:
        raise exceptions.InvalidVisibility()
    user = require_user(uid)
    login = user["login"]
    if default_visibility is not None:
        fields["default_visibility"] = visibilities.check(default_visibility, account_private=bool(user.get("private")))
    if not fields:
        return False
    if "bio" in fields:
        logins = text.mentioned_logins(fields["bio"])
        uids = store.profiles.uids_by_logins(logins)
        fields["bio_mentions"] = ",".join(mention for mention, found in zip(logins, uids, strict=True) if found)
    old = store.profiles.update_user(uid, fields)
    if old is None:
        raise exceptions.UnknownUser()
    if "name" in fields and old["name"] != fields["name"]:
        rename_user(uid=uid, login=login, old_name=old["name"], new_name=fields["name"])
    changed = any((old[field] or "") != value for field, value in fields.items())
    if changed and ("name" in fields or "bio" in fields):
        hooks.profile_changed(uid=uid)  # other servers that follow them get the new profile
    return changed

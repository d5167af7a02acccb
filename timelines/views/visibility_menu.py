"""The "Visibility" menu of the post box and of the reply box: which levels it offers and which one it shows
selected, as plain data for the templates (``visibility_choices``, ``visibility``).

It offers what the author may pick (``timelines.visibility.allowed_levels``: a private account only "Followers
only" and "Mentioned people only", a reply nothing wider than the post it answers) and starts on the account's
default, narrowed to the post answered. The service checks the pick again and refuses anything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms

from timelines import visibility
from timelines.records import User


def menu(*, me: User | None, form: forms.Form | None = None, replying_to: Mapping[str, Any] | None = None) -> dict:
    """The menu's context for ``me`` (None: an anonymous reader, shown the widest choice), keeping the level
    a bound ``form`` picked when it is offered."""
    account_private = bool(me and me.private)
    parent = visibility.of_status(replying_to) if replying_to is not None else None
    offered = visibility.allowed_levels(account_private=account_private, replying_to=parent)
    chosen = visibility.default_level(
        account_default=me.default_visibility if me else None, account_private=account_private, replying_to=parent
    )
    if form is not None and form.is_bound and form.data.get("visibility") in offered:
        chosen = form.data["visibility"]
    return {"visibility_choices": [(level, visibility.LABELS[level]) for level in offered], "visibility": chosen}

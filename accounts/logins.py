"""Finding the account a typed login names, by its ``login_key`` (``socialsite.logins``: the form the log-in
form, the failed-log-in limit and sign-up all compare), for the log-in backend and the sign-up and log-in forms.

An account is found only by its own key (``find_account``): the SQL lookup (``iexact``) narrows the candidates,
and the key decides, since databases fold case differently outside ASCII (SQLite not at all, Postgres' UPPER()
makes the dotless i, U+0131, an ``I``), and no second spelling may reach an account under a counter of its own.
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q

from socialsite.logins import login_key

__all__ = ["find_account", "login_key"]

# At most this many accounts share an iexact match (logins are unique by their SQL LOWER()); more are not read.
_CANDIDATES = 8


def find_account(typed: object) -> AbstractBaseUser | None:
    """The account whose login has the same ``login_key`` as ``typed``, or None. One query."""
    key = login_key(typed)
    model = get_user_model()
    field = model.USERNAME_FIELD
    # No stored login is longer (the slack is for case folds that lengthen, "İ" -> "i̇"); the bound also keeps a
    # megabyte of input from reaching SQLite's LIKE ("LIKE or GLOB pattern too complex").
    if not key or len(key) > 4 * (model._meta.get_field(field).max_length or 150):
        return None
    # The login as typed too: SQLite's LIKE folds ASCII only, so iexact alone would miss "BØB" typed as "BØB".
    typed_form = unicodedata.normalize("NFKC", str(typed).strip())
    matching = Q(**{f"{field}__iexact": key}) | Q(**{field: typed_form})
    candidates = model._default_manager.filter(matching).order_by("pk")
    for account in candidates[:_CANDIDATES]:
        if login_key(account.get_username()) == key:
            return account
    return None

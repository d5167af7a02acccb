"""The one form of a typed login that everything comparing logins uses: log-in (``accounts.logins``, which finds
accounts by it), the failed-log-in limit (``socialsite.ratelimits``) and sign-up. It lives here, below
``accounts``, because the limiter needs it and ``socialsite`` imports no app.

Django's log-in form hands authentication what was typed stripped and NFKC-normalised, so ``bob`` written in
fullwidth letters (U+FF42 U+FF4F U+FF42), with a modifier letter (U+1D47) or in mathematical bold all reach it
as ``bob``. A limit keyed on anything
else counts those apart, and five wrong passwords for ``bob`` would leave the right one open under another
spelling. ``login_key`` is that normalisation plus case folding ("Alice" is "alice"), and it is idempotent, so
the limiter may key the raw form field and still count exactly the account authentication will find.
"""

from __future__ import annotations

import unicodedata


def login_key(typed: object) -> str:
    """``typed`` as log-in compares it: stripped, NFKC-normalised, stripped again, lowercased. Idempotent;
    ``""`` for anything that is not a string."""
    if not isinstance(typed, str):
        return ""
    return unicodedata.normalize("NFKC", typed.strip()).strip().lower()

"""Template context every page of a logged-in viewer shares: their unread notification count and pending
follow requests for the header.

Both are read in one round trip, only when a template uses them.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from timelines import selectors


def notifications(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.uid is None:
        return {}
    uid = user.uid
    # Read once, on first use by the template (pages without the header pay nothing).
    return {"header_counts": SimpleLazyObject(lambda: selectors.get_header_counts(uid=uid))}

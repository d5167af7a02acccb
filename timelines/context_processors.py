"""Template context every page of a logged-in viewer shares: their unread notification count for the header.

The count is read only when a template uses it (a callable), so pages without the header pay nothing.
"""

from __future__ import annotations

from django.http import HttpRequest

from timelines import selectors


def notifications(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.uid is None:
        return {}
    uid = user.uid
    return {"unread_notifications": lambda: selectors.get_unread_count(uid=uid)}

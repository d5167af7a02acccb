"""Template context shared by every page: who is looking, and where they are.

``viewer_uid`` lets partial templates (a status, a follow button) decide what the viewer may do without a
request object, so the same partials render in views and in the live-timeline stream. ``current_path`` is the
page the person sees, even inside an htmx request for a fragment, so "come back here" links stay right.
"""

from __future__ import annotations

from django.http import HttpRequest


def viewer(request: HttpRequest) -> dict[str, object]:
    user = getattr(request, "user", None)
    uid = user.uid if user is not None and user.is_authenticated else None
    htmx = getattr(request, "htmx", None)
    current_path = (htmx.current_url_abs_path if htmx else None) or request.get_full_path()
    return {"viewer_uid": uid, "current_path": current_path}

"""Every logged-in person has a social profile: made at sign-up, or at log-in for accounts created without
one (``createsuperuser``); this middleware covers a session that predates its profile.

Page views read ``request.user.uid`` and never write; this is the one place a request may create the
profile, once per account, and (``VisitMiddleware``) write the person's last visit, at most once an hour per
process, rebuilding their home first when it was dropped while they were away (``timelines.services.idle``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts.services import ensure_profile_if_reachable
from socialsite.redis_client import UNAVAILABLE_ERRORS
from timelines.services import idle

logger = logging.getLogger(__name__)


class ProfileMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.uid is None:
            ensure_profile_if_reachable(user)
        return self.get_response(request)


class VisitMiddleware:
    """A logged-in person's visit counts as activity (``idle.note_seen``): their idle-dropped home is rebuilt
    before the page reads it. Redis being down is left for the page itself to answer (503)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.uid is not None:
            try:
                idle.note_seen(uid=user.uid)
            except UNAVAILABLE_ERRORS:
                logger.warning("Could not record a visit of %s.", user.uid, exc_info=True)
        return self.get_response(request)

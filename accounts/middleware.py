"""Every logged-in person has a social profile: made at sign-up, or at log-in for accounts created without
one (``createsuperuser``); this middleware covers a session that predates its profile.

Page views read ``request.user.uid`` and never write; this is the one place a request may create the
profile, once per account.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts.services import ensure_profile_if_reachable


class ProfileMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.uid is None:
            ensure_profile_if_reachable(user)
        return self.get_response(request)

"""Content negotiation on the canonical URIs: ``/@login`` and ``/@login/<id>`` are pages for a browser and the
actor or the ``Note`` for a client that asks for ActivityPub (``federation.negotiation``). The pages stay the
timelines app's; only requests asking for ActivityPub are answered here."""

from __future__ import annotations

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from federation.negotiation import wants_activity
from federation.views import objects
from timelines import limits

_ACTOR = re.compile(rf"^/@(?P<login>[A-Za-z0-9_]{{1,{limits.MAX_LOGIN_LENGTH}}})/?$")
_STATUS = re.compile(rf"^/@(?P<login>[A-Za-z0-9_]{{1,{limits.MAX_LOGIN_LENGTH}}})/(?P<status_id>[0-9]{{1,16}})/?$")


class ActivityPubMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD") and wants_activity(request):
            if match := _ACTOR.match(request.path_info):
                return objects.actor(request, match["login"])
            if match := _STATUS.match(request.path_info):
                return objects.note(request, match["login"], int(match["status_id"]))
        response = self.get_response(request)
        if request.path_info.startswith("/@"):
            # Caches must keep the page and the document apart.
            response.headers.setdefault("Vary", "Accept")
        return response

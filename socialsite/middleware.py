"""Turns "Redis is unreachable" into a readable 503 page instead of a 500 with a traceback; and, in the client
API's chain, stands for no one until a bearer token says who calls."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin

from socialsite.redis_client import UNAVAILABLE_ERRORS

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = "10"


class AnonymousUntilTokenMiddleware:
    """The client API's chain (``settings.API_MIDDLEWARE``) has no session or auth middleware: ``request.user`` is
    anonymous until ``api.http`` sets the token's owner, so a page or a rate limit read before that (an error
    page, an unknown path) sees no one, as the full chain sees a caller without a session."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.user = AnonymousUser()
        return self.get_response(request)


class RedisUnavailableMiddleware(MiddlewareMixin):
    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, UNAVAILABLE_ERRORS):
            return None
        logger.error("Redis unavailable while serving %s: %s", request.path, exception)
        if request.headers.get("Accept", "").startswith("application/json"):
            response: HttpResponse = JsonResponse(
                {"error": "service_unavailable", "detail": "The data store is unreachable; try again shortly."},
                status=503,
            )
        else:
            response = HttpResponse(render_to_string("503.html", request=request), status=503)
        response["Retry-After"] = RETRY_AFTER_SECONDS
        return response

"""Turns "Redis is unreachable" into a readable 503 page instead of a 500 with a traceback."""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin

from socialsite.redis_client import UNAVAILABLE_ERRORS

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = "10"


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

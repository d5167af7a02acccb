"""Site-wide error pages: the site's own 400, 403, 404 and 500 pages (``handler*`` in ``socialsite.urls``) and
the CSRF failure page. They show a message written for people, never a traceback, a setting or a path on disk,
whatever ``DEBUG`` says. The 400 and 500 pages render without the request, so no context processor (and no
Redis) is involved in showing them."""

from __future__ import annotations

from django.core.exceptions import BadRequest
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    HttpResponseNotFound,
    HttpResponseServerError,
    JsonResponse,
)
from django.template.loader import render_to_string
from django.urls import Resolver404

CSRF_FAILED = "This form has expired or did not come from this site. Go back, reload the page and try again."


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        # The client API's unknown paths answer as its endpoints do: Mastodon's JSON error, never a page.
        return JsonResponse({"error": "Record not found"}, status=404, headers={"Access-Control-Allow-Origin": "*"})
    # A view's Http404 carries a message written for people ("No such user."); a URL that matched no route
    # carries Django's internals, which are not shown.
    message = ""
    readable = isinstance(exception, Http404) and not isinstance(exception, Resolver404)
    if readable and exception.args and isinstance(exception.args[0], str):
        message = exception.args[0]
    return HttpResponseNotFound(render_to_string("404.html", {"message": message}, request=request))


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    # Views raise BadRequest with a sentence for people ("max_id must be a whole number ..."). Django's own 400s
    # (SuspiciousOperation: a disallowed Host header, too many fields) describe its settings: not shown.
    message = ""
    if type(exception) is BadRequest and exception.args and isinstance(exception.args[0], str):
        message = exception.args[0]
    return HttpResponseBadRequest(render_to_string("400.html", {"message": message}))


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return HttpResponseForbidden(render_to_string("403.html", request=request))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    # ``reason`` is Django's diagnosis ("CSRF cookie not set."): for developers, not for the page.
    return HttpResponseForbidden(render_to_string("403.html", {"message": CSRF_FAILED}, request=request))


def server_error(request: HttpRequest) -> HttpResponse:
    return HttpResponseServerError(render_to_string("500.html"))

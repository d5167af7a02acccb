"""Site-wide error pages."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound
from django.template.loader import render_to_string
from django.urls import Resolver404


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    # A view's Http404 carries a message written for people ("No such user."); a URL that matched no route
    # carries Django's internals, which are not shown.
    message = ""
    readable = isinstance(exception, Http404) and not isinstance(exception, Resolver404)
    if readable and exception.args and isinstance(exception.args[0], str):
        message = exception.args[0]
    return HttpResponseNotFound(render_to_string("404.html", {"message": message}, request=request))

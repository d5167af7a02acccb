"""Site-wide error pages."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.template.loader import render_to_string


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return HttpResponseNotFound(render_to_string("404.html", request=request))

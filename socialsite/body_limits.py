"""How large a request body may be (issue 21, "uploads over 10 MB refused with a clear message"), and the answer
to one that is larger, given from its headers before its body is read.

A picture may be at most ``SOCIALSITE_MEDIA_MAX_BYTES`` (10 MB); a request may carry what its form needs and no
more: the client API's media upload one picture, the post box (and every other form) four, each plus a
``FORM_SLACK`` for the other fields and the multipart framing. Two places apply it: the web server
(``socialsite.http_server``: daphne reads a whole body into a file before the application sees it, so only the
server can refuse one without reading it) and ``BodyLimitMiddleware`` (the same answer under any other server and
in the test client). A file within the request limit but over the picture limit reaches the view, whose form or
JSON error names the limit (``media.limits.too_large_message``).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from media import limits as media_limits

FORM_SLACK = 64 * 1024  # the other fields (text, four alt texts of 1,500 characters) and the multipart framing
SINGLE_UPLOAD_PATHS = ("/api/v1/media", "/api/v2/media")


def max_body_bytes(path: str) -> int:
    """The largest body accepted for a request to ``path``."""
    one = media_limits.max_upload_bytes()
    if path.rstrip("/") in SINGLE_UPLOAD_PATHS:
        return one + FORM_SLACK
    return media_limits.MAX_PER_POST * one + FORM_SLACK


def message(path: str) -> str:
    if path.rstrip("/") in SINGLE_UPLOAD_PATHS:
        return f"This upload is too large. {media_limits.too_large_message()}"
    return (
        f"This request is too large. {media_limits.too_large_message()} "
        f"A post may carry at most {media_limits.MAX_PER_POST} images."
    )


def wants_json(path: str) -> bool:
    return path.startswith(("/api/", "/oauth/"))


def refusal(path: str) -> tuple[str, bytes]:
    """The 413's content type and body for ``path``: JSON (``{"error": ...}``) for the client API, a short page
    otherwise."""
    text = message(path)
    if wants_json(path):
        return "application/json", json.dumps({"error": text}).encode()
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too large</title></head><body>'
        f'<h1>Too large</h1><p role="alert">{text}</p><p><a href="/">Back to the home page</a></p></body></html>'
    )
    return "text/html; charset=utf-8", page.encode()


def content_length(raw: str | bytes | None) -> int | None:
    try:
        return int(raw) if raw not in (None, "", b"") else None  # type: ignore[arg-type]
    except ValueError:
        return None


class BodyLimitMiddleware:
    """Answer 413 to a request whose ``Content-Length`` is over ``max_body_bytes``, before anything reads it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = content_length(request.META.get("CONTENT_LENGTH"))
        if length is not None and length > max_body_bytes(request.path):
            content_type, body = refusal(request.path)
            return HttpResponse(body, status=413, content_type=content_type)
        return self.get_response(request)

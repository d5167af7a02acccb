"""Which host names the site answers to: ``settings.ALLOWED_HOSTS``, checked once for every route.

Django checks the ``Host`` header only when a view asks for it (``request.get_host()``), and only for requests that
reach Django: the streaming API, the live pages, the static files (WhiteNoise answers before any view) and the
API's JSON 404 answered whatever host a request named. ``AllowedHostsMiddleware`` wraps the whole ASGI application
(``socialsite.asgi``), so no route answers a host that is not allowed: an HTTP request gets 400 before any
application sees it, a websocket is refused before it is accepted.

The host is read as Django reads it (``HttpRequest.get_host``): ``X-Forwarded-Host`` when
``USE_X_FORWARDED_HOST`` is on (``socialsite.proxies`` has already removed it unless a trusted proxy sent it),
else ``Host``, else the server's own name and port; with ``DEBUG`` on and ``ALLOWED_HOSTS`` empty, the local names
Django allows then. The refusal is logged on Django's ``django.security.DisallowedHost`` logger, as Django does.
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from socialsite.security import ASGIApp, Receive, Scope, Send

logger = logging.getLogger("django.security.DisallowedHost")

# What Django allows with DEBUG on and ALLOWED_HOSTS empty (django.http.request.HttpRequest.get_host).
DEBUG_HOSTS = (".localhost", "127.0.0.1", "[::1]")
BAD_HOST = "This site does not answer to that host name."


def allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        hosts = list(DEBUG_HOSTS)
    return hosts


def requested_host(scope: Scope) -> str:
    """The host a request names, as ``HttpRequest.get_host`` reads it (latin-1, the ASGI headers' encoding)."""
    headers: dict[bytes, bytes] = {}
    for name, value in scope.get("headers", ()):
        headers.setdefault(bytes(name).lower(), bytes(value))
    if settings.USE_X_FORWARDED_HOST and b"x-forwarded-host" in headers:
        return headers[b"x-forwarded-host"].decode("latin-1")
    if b"host" in headers:
        return headers[b"host"].decode("latin-1")
    server = scope.get("server") or ("", None)
    name, port = server[0], server[1]
    return f"{name}:{port}" if port is not None else str(name)


def is_allowed(host: str) -> bool:
    domain, _port = split_domain_port(host)
    return bool(domain) and validate_host(domain, allowed_hosts())


class AllowedHostsMiddleware:
    """ASGI middleware: requests for a host not in ``ALLOWED_HOSTS`` are answered 400 (websockets: refused)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = requested_host(scope)
        if is_allowed(host):
            await self.app(scope, receive, send)
            return
        logger.warning("Invalid HTTP_HOST header: %r. The host is not in ALLOWED_HOSTS.", host[:200])
        if scope["type"] == "websocket":
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008})
            return
        await refuse(scope, send)


async def refuse(scope: Scope, send: Send) -> None:
    """400, with a JSON body for the API (``/statuses/...``, ``....json``), plain text for everything else."""
    path = str(scope.get("path", ""))
    if path.startswith("/statuses/") or path.endswith(".json"):
        body = json.dumps({"error": "bad_host", "message": BAD_HOST}).encode()
        content_type = b"application/json"
    else:
        body = f"Bad Request (400): {BAD_HOST}\n".encode()
        content_type = b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": 400,
            "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})

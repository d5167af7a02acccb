"""The security headers every response carries, pages and streams alike.

Django's own middleware sets most of them on Django responses (``SecurityMiddleware``: ``X-Content-Type-Options``,
``Referrer-Policy``, ``Cross-Origin-Opener-Policy``, HSTS and the SSL redirect; ``XFrameOptionsMiddleware``:
``X-Frame-Options``). Django 5.2 has no content security policy, so ``ContentSecurityPolicyMiddleware`` adds
``settings.CONTENT_SECURITY_POLICY``: no inline scripts or styles, no ``eval``, nothing from other origins, no
framing. The templates are written for it: no inline ``<script>``, ``<style>``, ``style=`` or ``on*=``, and
htmx is configured without ``eval`` (``allowEval: false`` in base.html's ``htmx-config``).

The streaming API and the live home timeline are plain ASGI applications that Django's middleware never sees:
``SecurityHeadersMiddleware`` wraps the whole ASGI application (``socialsite.asgi``) and adds to any HTTP response
whichever of ``security_headers()`` it lacks, so a JSON error, a stream and a server-sent-events response carry
them too. Code that builds raw ASGI responses may also add ``security_headers()`` itself. (It replaces ``send``:
the streams' flow control finds daphne's own ``send`` through ``streaming.flow.keep_raw_send``, outside it.)

With ``DEBUG`` on, error responses go without the policy: Django's debug pages use inline styles and scripts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def security_headers() -> list[tuple[bytes, bytes]]:
    """The headers every response carries, as ASGI (name, value) byte pairs with lower-case names."""
    headers = [
        (b"content-security-policy", settings.CONTENT_SECURITY_POLICY),
        (b"x-content-type-options", "nosniff"),
        (b"referrer-policy", settings.SECURE_REFERRER_POLICY),
        (b"x-frame-options", settings.X_FRAME_OPTIONS),
        (b"cross-origin-opener-policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY),
    ]
    return [(name, value.encode("latin-1")) for name, value in headers if value]


def debug_page(status: int) -> bool:
    """Whether a response of this status may be one of Django's debug pages, which the policy would break."""
    return settings.DEBUG and status >= 400


def _as_bytes(name: bytes | str) -> bytes:
    return name if isinstance(name, bytes) else name.encode("latin-1")


class ContentSecurityPolicyMiddleware:
    """Adds ``Content-Security-Policy`` to every Django response that has none."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if debug_page(response.status_code):
            return response
        if settings.CONTENT_SECURITY_POLICY and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = settings.CONTENT_SECURITY_POLICY
        return response


class SecurityHeadersMiddleware:
    """ASGI middleware: every HTTP response gets the ``security_headers()`` it does not already have."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {_as_bytes(name).lower() for name, _ in headers}
                if debug_page(int(message.get("status", 200))):
                    present.add(b"content-security-policy")
                headers.extend(pair for pair in security_headers() if pair[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

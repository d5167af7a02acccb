"""The site answers only the host names in ``ALLOWED_HOSTS``, on every route of the real daphne server: the
streams, the live pages, the static files and the API's 404 included, not only the pages Django renders."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Iterator

import pytest
from django.test import Client

from accounts.services import sign_up
from socialsite import testing
from socialsite.hosts import AllowedHostsMiddleware

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long enough password 42"


@pytest.fixture(scope="module")
def site(django_db_setup: None) -> Iterator[str]:
    """daphne on the test database (the live page needs the session) with DEBUG off and the default hosts."""
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_LOG_LEVEL": "ERROR",
        "DATABASE_URL": testing.database_url(),
    }
    with testing.daphne(env, probe="/healthz") as (url, _):
        yield url


def raw_request(url: str, request: bytes) -> bytes:
    """Send ``request``; returns the answer's head and, for a refusal, its whole body (the server closes the
    connection after it). A stream that was let through never ends by itself: only its head is read."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=testing.WAIT_SECONDS) as sock:
        sock.sendall(request)
        received = b""
        while b"\r\n\r\n" not in received and (chunk := sock.recv(65536)):
            received += chunk
        if received.startswith(b"HTTP/1.1 400"):
            while chunk := sock.recv(65536):
                received += chunk
        return received


def get(url: str, method: str, path: str, host: bytes, cookie: str = "", body: bytes = b"") -> bytes:
    head = f"{method} {path} HTTP/1.1\r\n".encode() + b"Host: " + host + b"\r\nConnection: close\r\n"
    if cookie:
        head += f"Cookie: sessionid={cookie}\r\n".encode()
    if body:
        head += b"Content-Type: application/x-www-form-urlencoded\r\n"
    head += f"Content-Length: {len(body)}\r\n\r\n".encode()
    return raw_request(url, head + body)


def test_every_route_refuses_a_host_not_in_allowed_hosts(site):
    user = sign_up(login="ada", name="Ada", password=PASSWORD)
    client = Client()
    assert client.login(username="ada", password=PASSWORD)
    session = client.cookies["sessionid"].value
    routes = [
        ("GET", "/statuses/sample.json?identifier=h&percent=100", b""),
        ("POST", "/statuses/filter.json?identifier=h", b"track=hello"),
        ("GET", "/live/home", b""),
        ("GET", "/live/me", b""),
        ("GET", "/static/css/site.css", b""),
        ("GET", "/statuses/nothing", b""),
        ("GET", "/", b""),
    ]
    for method, path, body in routes:
        allowed = get(site, method, path, b"127.0.0.1", session, body)
        assert not allowed.startswith(b"HTTP/1.1 400"), (path, allowed[:200])
        for host in (b"evil.example", b"evil.example:80", b"127.0.0.1.evil.example", b""):
            answer = get(site, method, path, host, session, body)
            head, _, rest = answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 400"), (path, host, answer[:300])
            # Nothing of the stream, the page or the file: only the refusal.
            assert b"text/event-stream" not in head and b"retry:" not in rest, (path, host)
            assert b"hello" not in rest and b"body" not in rest and str(user.uid).encode() not in rest, (path, host)


def test_a_websocket_for_another_host_is_refused_before_it_is_accepted():
    sent: list[dict] = []
    reached: list[dict] = []

    async def app(scope, receive, send):
        reached.append(scope)

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "websocket", "path": "/ws", "headers": [(b"host", b"evil.example")], "server": ("x", 80)}
    asyncio.run(AllowedHostsMiddleware(app)(scope, receive, send))
    assert reached == []
    assert sent == [{"type": "websocket.close", "code": 1008}]

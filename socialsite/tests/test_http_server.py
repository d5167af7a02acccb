"""The web server as the site runs it (``socialsite.http_server``, daphne underneath): a request line or a header
too long for it is answered, 414 or 431, instead of the connection being dropped without a word."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator

import pytest

from socialsite import testing, web_processes


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, int]]:
    env = {**os.environ, "DJANGO_LOG_LEVEL": "ERROR"}
    with testing.daphne(env, probe="/healthz") as (url, _):
        host, port = url.removeprefix("http://").split(":")
        yield host, int(port)


def exchange(address: tuple[str, int], request: bytes) -> bytes:
    """Everything the server answers to ``request`` before it closes the connection."""
    with socket.create_connection(address, timeout=testing.WAIT_SECONDS) as sock:
        sock.sendall(request)
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except ConnectionResetError:
            pass  # the answer, if any, came before the reset
        return received


def test_a_20_kb_url_is_answered_414(site):
    answer = exchange(site, b"GET /search?q=" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 414 URI Too Long\r\n"), answer[:200]
    assert b"connection: close" in answer.lower()
    assert b"x-content-type-options: nosniff" in answer.lower()


def test_a_20_kb_header_is_answered_431(site):
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + b"c" * 20_000 + b"\r\n\r\n"
    answer = exchange(site, request)
    assert answer.startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"), answer[:200]


def test_the_url_is_answered_414_however_it_arrives(site):
    """The request line in many small pieces, as a slow client sends it: the limit is the same."""
    with socket.create_connection(site, timeout=testing.WAIT_SECONDS) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(b"GET /?q=")
        answer = b""
        for _ in range(30):
            try:
                sock.sendall(b"b" * 1000)
            except (BrokenPipeError, ConnectionResetError):
                break
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
    assert answer.startswith(b"HTTP/1.1 414 URI Too Long\r\n"), answer[:200]


def test_an_ordinary_long_url_is_still_served(site):
    answer = exchange(
        site, b"GET /healthz?q=" + b"a" * 8_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]


def test_serve_runs_the_same_server():
    with socket.socket() as sock:
        command = web_processes.command(sock)
    assert command[1:3] == ["-m", "socialsite.http_server"]


def test_a_malformed_multipart_body_reaches_django(site):
    """Twisted no longer parses bodies itself: a multipart body with no parts gets the site's answer (here the
    client API's JSON 401, since no token came), not an empty 400 from Twisted."""
    body = b"--xyz--\r\n"
    head = (
        b"POST /api/v1/media HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        b"Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    answer = exchange(site, head + body)
    assert answer.startswith(b"HTTP/1.1 401"), answer[:300]
    assert answer.endswith(b'{"error": "The access token is invalid"}'), answer[-300:]

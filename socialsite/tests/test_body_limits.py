"""A request body over the upload limits is refused with 413 and a clear message before it is read (issue 21):
by the web server from the head (so a 50 MB upload is never written to a temporary file) or as a chunked body
passes the limit, and by the middleware under any other server; the client API's answer is JSON. Never a 500."""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterable, Iterator

import pytest
from django.test import Client

from socialsite import body_limits, testing

LIMIT = 100_000  # SOCIALSITE_MEDIA_MAX_BYTES of these tests: a media upload may be 164 kB, any other body 464 kB


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, int]]:
    env = {**os.environ, "DJANGO_LOG_LEVEL": "ERROR", "SOCIALSITE_MEDIA_MAX_BYTES": str(LIMIT)}
    with testing.daphne(env, probe="/healthz") as (url, _):
        host, port = url.removeprefix("http://").split(":")
        yield host, int(port)


def answer_to(address: tuple[str, int], head: bytes, body_chunks: Iterable[bytes] = ()) -> bytes:
    """What the server answers to ``head`` followed by ``body_chunks`` (sent until it stops reading), read until
    the answer's ``Content-Length`` is complete."""
    with socket.create_connection(address, timeout=testing.WAIT_SECONDS) as sock:
        sock.sendall(head)
        for chunk in body_chunks:
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
                status, body = split(received)
                lengths = [line for line in status.lower().split(b"\r\n") if line.startswith(b"content-length:")]
                if lengths and len(body) >= int(lengths[0].split(b":")[1]):
                    break
        except (ConnectionResetError, TimeoutError):
            pass
        return received


def split(response: bytes) -> tuple[bytes, bytes]:
    head, _, body = response.partition(b"\r\n\r\n")
    return head, body


def test_a_50_mb_media_upload_is_answered_413_in_json_from_its_head_alone(site):
    head = (
        b"POST /api/v2/media HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
        b"Content-Length: 50000000\r\nExpect: 100-continue\r\n\r\n"
    )
    started = time.monotonic()
    status, body = split(answer_to(site, head))
    assert status.startswith(b"HTTP/1.1 413 "), status
    assert b"content-type: application/json" in status.lower()
    assert json.loads(body)["error"] == "This upload is too large. Images may be at most 97 kB."
    assert b"100 Continue" not in status  # the client was never asked for the body
    assert time.monotonic() - started < testing.WAIT_SECONDS


def test_an_oversized_post_box_is_answered_413_with_a_page_while_its_body_is_dropped(site):
    size = 600_000
    head = (
        b"POST /compose HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
        b"Content-Length: " + str(size).encode() + b"\r\n\r\n"
    )
    status, body = split(answer_to(site, head, iter([b"x" * 60_000] * 10)))
    assert status.startswith(b"HTTP/1.1 413 "), status
    assert b"text/html" in status.lower()
    assert b"This request is too large. Images may be at most 97 kB. A post may carry at most 4 images." in body


def test_a_chunked_body_is_cut_off_once_it_passes_the_limit(site):
    head = (
        b"POST /api/v1/media HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"%x\r\n" % 50_000 + b"y" * 50_000 + b"\r\n"
    status, body = split(answer_to(site, head, iter([chunk] * 20)))
    assert status.startswith(b"HTTP/1.1 413 "), status
    assert "too large" in json.loads(body)["error"]


def test_a_body_within_the_limit_still_reaches_the_site(site):
    head = b"POST /api/v2/media HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
    status, _ = split(answer_to(site, head))
    assert status.startswith(b"HTTP/1.1 401 "), status  # the site's own answer: no token


@pytest.mark.django_db
def test_the_middleware_refuses_the_same_bodies_under_any_server(settings):
    settings.SOCIALSITE_MEDIA_MAX_BYTES = LIMIT
    client = Client()
    big = client.generic("POST", "/api/v2/media", b"z" * (LIMIT + body_limits.FORM_SLACK + 1))
    assert big.status_code == 413
    assert big.json() == {"error": "This upload is too large. Images may be at most 97 kB."}
    page = client.generic("POST", "/compose", b"z" * (4 * LIMIT + body_limits.FORM_SLACK + 1))
    assert page.status_code == 413 and b"A post may carry at most 4 images." in page.content

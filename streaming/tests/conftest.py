"""A real daphne serving ``socialsite.asgi`` on a free port, shared by the streaming API tests.

The server is a child process: it inherits the session's ``REDIS_URL`` (see the root conftest), and the
streaming knobs are shortened so the tests run in seconds: a keep-alive every second, a 50-event queue and a
32 KiB kernel send buffer per client, so a client that stops reading is cut off after a few hundred posts.

``server`` (function-scoped) checks after every test that the hub holds no subscription and no stream task:
whatever a test opened, closing it must leave nothing behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from socialsite import testing

SERVER_ENV = {
    "STREAMING_KEEPALIVE_SECONDS": "1",
    "STREAMING_QUEUE_SIZE": "50",
    "STREAMING_SEND_BUFFER_BYTES": "32768",
    "STREAMING_CLOSE_GRACE_SECONDS": "5",
    "STREAMING_HUB_ENDPOINT": "1",
    # Every test client comes from 127.0.0.1; the load tests hold 200 streams at once.
    "STREAMING_MAX_CONNECTIONS_PER_ADDRESS": "1000",
}


@dataclass
class StreamServer:
    url: str
    process: subprocess.Popen[bytes]

    def hub(self) -> dict[str, Any]:
        """The server's hub counters (GET /statuses/hub.json)."""
        with urllib.request.urlopen(self.url + "/statuses/hub.json", timeout=testing.WAIT_SECONDS) as response:
            return json.load(response)

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], Any]:
        """A plain (non-streaming) request: status, headers and the JSON body."""
        request = urllib.request.Request(self.url + path, data=body, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=testing.WAIT_SECONDS) as response:
                return response.status, dict(response.headers), json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), json.loads(error.read())

    def wait_for_hub(self, timeout: float = testing.WAIT_SECONDS, **expected: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            state = self.hub()
            if all(state[name] == value for name, value in expected.items()):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"hub never reached {expected}: {state}")
            time.sleep(0.02)


@contextlib.contextmanager
def server_on_test_database(name: str) -> Iterator[StreamServer]:
    """A daphne with the streaming tests' small limits that shares the test database (sessions, accounts), for
    tests of logged-in streams; its log is ``<name>-server.log`` in the session's directory."""
    env = {
        **os.environ,
        **SERVER_ENV,
        "DATABASE_URL": testing.database_url(),
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    log_path = Path(settings.VAR_DIR) / f"{name}-server.log"
    with testing.daphne(env, probe="/statuses/hub.json", log_path=log_path, start_timeout=30) as (url, process):
        yield StreamServer(url, process)


@pytest.fixture(scope="session")
def stream_server() -> Iterator[StreamServer]:
    env = {**os.environ, **SERVER_ENV}
    # The server's log stays in the session's directory, to read when a test fails.
    log_path = Path(settings.VAR_DIR) / "stream-server.log"
    with testing.daphne(env, probe="/statuses/hub.json", log_path=log_path, start_timeout=30) as (url, process):
        yield StreamServer(url, process)


@pytest.fixture
def server(stream_server: StreamServer) -> Iterator[StreamServer]:
    stream_server.wait_for_hub(subscriptions=0, streams=0)
    yield stream_server
    stream_server.wait_for_hub(subscriptions=0, streams=0, reading=False)

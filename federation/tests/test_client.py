"""Remote fetches cannot reach the server's own network, and stay small, quick and honest (step 2)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import override_settings

from federation import client


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        port = self.server.server_address[1]
        if self.path.startswith("/loop"):
            self.send_response(302)
            self.send_header("Location", f"/loop{int(self.path[5:] or 0) + 1}")
            self.end_headers()
            return
        if self.path == "/huge":
            body = b"x" * (client.MAX_BYTES + 10)
        elif self.path == "/elsewhere":
            body = json.dumps({"id": "http://other.example/note/1", "type": "Note"}).encode()
        else:
            body = json.dumps({"id": f"http://127.0.0.1:{port}/note/1", "type": "Note"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/activity+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def origin():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/x",
        "https://localhost/x",
        "https://10.1.2.3/x",
        "https://169.254.169.254/latest",
        "https://[::1]/x",
        "https://[::ffff:127.0.0.1]/x",
        "http://example.com/x",
        "ftp://example.com/x",
    ],
)
def test_private_loopback_link_local_addresses_and_plain_http_are_refused(url):
    with override_settings(SOCIALSITE_FEDERATION_INSECURE=False), pytest.raises(client.FetchError, match="refused"):
        client.resolve(url)


@override_settings(SOCIALSITE_FEDERATION_INSECURE=False)
def test_a_loopback_server_is_not_fetched_unless_insecure_is_on(origin, db):
    with pytest.raises(client.FetchError, match="refused"):
        client.fetch_object(origin + "/note/1", signer=None)


@override_settings(SOCIALSITE_FEDERATION_INSECURE=True)
def test_fetches_are_limited_in_size_and_redirects_and_ids_must_be_on_the_serving_host(origin, db):
    assert client.fetch_object(origin + "/note/1", signer=None)["type"] == "Note"
    with pytest.raises(client.FetchError, match="more than"):
        client.fetch_object(origin + "/huge", signer=None)
    with pytest.raises(client.FetchError, match="redirects more than"):
        client.fetch_object(origin + "/loop0", signer=None)
    with pytest.raises(client.FetchError, match="not on its host"):
        client.fetch_object(origin + "/elsewhere", signer=None)


def test_check_deploy_refuses_insecure_federation(db):
    with (
        override_settings(SOCIALSITE_FEDERATION_INSECURE=True),
        pytest.raises(SystemCheckError, match=r"federation\.E001"),
    ):
        call_command("check", "--deploy", "--fail-level", "ERROR", tags=["security"])

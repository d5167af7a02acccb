"""Client addresses cannot be forged: ``X-Forwarded-For`` counts only from the proxies in
``DJANGO_TRUSTED_PROXIES`` (socialsite/proxies.py), checked on its own and through a real daphne, where the
per-IP search limit shows which address the site believed."""

from __future__ import annotations

import asyncio
import http.client
import os
import subprocess
import sys
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from socialsite import testing
from socialsite.proxies import TrustedProxyMiddleware, client_address, trusted_networks

PROXY = "127.0.0.2"  # loopback accepts any 127/8 source address, so the test can connect "from the proxy"
NETWORKS = trusted_networks(("10.0.0.0/8", "192.0.2.1"))


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "real_ip", "client"),
    [
        ("203.0.113.5", ["6.6.6.6"], None, "203.0.113.5"),  # not a proxy: its header is a lie
        ("203.0.113.5", [], "6.6.6.6", "203.0.113.5"),
        ("10.1.2.3", ["198.51.100.7"], None, "198.51.100.7"),
        ("10.1.2.3", ["6.6.6.6", "198.51.100.7"], None, "198.51.100.7"),  # the client wrote the left part
        ("10.1.2.3", ["6.6.6.6", "198.51.100.7", "192.0.2.1"], None, "198.51.100.7"),  # two proxies
        ("10.1.2.3", ["10.9.9.9", "192.0.2.1"], None, "10.9.9.9"),  # proxies all the way: the left-most
        ("10.1.2.3", ["6.6.6.6", "not-an-address", "198.51.100.7"], None, "198.51.100.7"),
        ("10.1.2.3", ["garbage"], None, "10.1.2.3"),
        ("10.1.2.3", [], "198.51.100.8", "198.51.100.8"),
        ("10.1.2.3", [" 2001:db8::5 "], None, "2001:db8::5"),
        ("10.1.2.3", ["[2001:db8::6]:4711"], None, "2001:db8::6"),
        ("10.1.2.3", ["198.51.100.9:4711"], None, "198.51.100.9"),
    ],
)
def test_the_client_is_the_right_most_untrusted_address(peer, forwarded_for, real_ip, client):
    assert client_address(peer, forwarded_for, real_ip, NETWORKS) == client


def run_middleware(scope: dict, trusted: list[str]) -> dict:
    seen = {}

    async def app(scope, receive, send):
        seen.update(scope)

    async def nothing():
        return {}

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(settings, "TRUSTED_PROXIES", trusted)
        asyncio.run(TrustedProxyMiddleware(app)(scope, nothing, nothing))
    return seen


def test_an_untrusted_peers_forwarding_headers_are_dropped():
    headers = [(b"x-forwarded-for", b"6.6.6.6"), (b"X-Forwarded-Proto", b"https"), (b"accept", b"*/*")]
    seen = run_middleware({"type": "http", "client": ["203.0.113.5", 5000], "headers": headers}, ["10.0.0.0/8"])
    assert seen["client"] == ["203.0.113.5", 5000]
    assert seen["headers"] == [(b"accept", b"*/*")]  # nothing further in can believe https either


def test_a_trusted_peer_names_the_client_and_keeps_its_headers():
    headers = [(b"x-forwarded-for", b"6.6.6.6, 198.51.100.7"), (b"x-forwarded-proto", b"https")]
    seen = run_middleware({"type": "http", "client": ["10.0.0.1", 5000], "headers": headers}, ["10.0.0.0/8"])
    assert seen["client"] == ["198.51.100.7", 0]
    assert seen["headers"] == headers


def test_lifespan_and_other_scopes_pass_through():
    assert run_middleware({"type": "lifespan"}, []) == {"type": "lifespan"}


def search(url: str, *, source: str, forwarded_for: str | None = None) -> int:
    """GET /search from the ``source`` address, optionally with an X-Forwarded-For; the status code."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10, source_address=(source, 0))
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    try:
        connection.request("GET", "/search?q=hello", headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_through_daphne_a_forged_header_counts_only_from_a_trusted_proxy():
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_TRUSTED_PROXIES": PROXY,
        "RATE_LIMIT_SEARCHES_PER_IP": "2/1h",
        "DATABASE_URL": testing.database_url(),
        "STREAMING_HUB_ENDPOINT": "1",
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    manage = str(settings.BASE_DIR / "manage.py")
    subprocess.run([sys.executable, manage, "collectstatic", "--noinput", "-v0"], env=env, check=True)
    with testing.daphne(env, probe="/statuses/hub.json") as (url, _):
        # From 127.0.0.1, not a proxy: each request claims another address, and all count as 127.0.0.1.
        statuses = [search(url, source="127.0.0.1", forwarded_for=f"6.6.6.{n}") for n in range(3)]
        assert statuses == [200, 200, 429]
        # From the proxy: the address it names is the client, each with its own count.
        assert [search(url, source=PROXY, forwarded_for=f"198.51.100.{n}") for n in range(3)] == [200, 200, 200]
        # A client that prepends a forged address to the proxy's entry is still counted as itself.
        repeats = [search(url, source=PROXY, forwarded_for=f"6.6.6.{n}, 198.51.100.0") for n in range(2)]
        assert repeats == [200, 429]
        # The proxy's own requests without a header count as the proxy.
        assert search(url, source=PROXY) == 200

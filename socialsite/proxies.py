"""Who the client is: ``X-Forwarded-For`` and ``X-Real-IP`` are believed only from proxies the site trusts.

``TrustedProxyMiddleware`` wraps the whole ASGI application (``socialsite.asgi``), so Django's views (and so
``REMOTE_ADDR`` and the per-IP rate limits), the streaming API and the live home all see one client address.

- When the direct peer is not in ``settings.TRUSTED_PROXIES`` (``DJANGO_TRUSTED_PROXIES``: addresses or networks,
  empty by default), the peer is the client. Its forwarding headers (``X-Forwarded-For``, ``X-Real-IP``,
  ``X-Forwarded-Proto``, ``-Host``, ``-Port``, ``Forwarded``) are removed from the request, so nothing further in
  (``SECURE_PROXY_SSL_HEADER`` included) can be fooled by a client that sends them itself.
- When the peer is trusted, the client is the right-most address of ``X-Forwarded-For`` that is not a trusted
  proxy: each proxy appends the address it saw, so everything left of the first untrusted hop was written by the
  client and may be forged. A chain of trusted proxies only is read back to its left-most address. Without
  ``X-Forwarded-For``, a trusted proxy's ``X-Real-IP`` names the client.

daphne's own ``--proxy-headers`` is not used: it believes ``X-Forwarded-For`` from anyone.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from socialsite.security import ASGIApp, Receive, Scope, Send

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

FORWARDING_HEADERS = frozenset(
    {b"x-forwarded-for", b"x-real-ip", b"x-forwarded-proto", b"x-forwarded-host", b"x-forwarded-port", b"forwarded"}
)


@functools.cache
def trusted_networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    """``DJANGO_TRUSTED_PROXIES`` parsed: ``10.0.0.5``, ``10.0.0.0/8`` or ``fd00::/8``."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ImproperlyConfigured(f"DJANGO_TRUSTED_PROXIES: {entry!r} is not an IP address or network.") from None
    return tuple(networks)


def parse_address(text: str) -> Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]:443"
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # "203.0.113.7:51234"
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    # An IPv4 client reaching an IPv6 socket shows up as ::ffff:a.b.c.d.
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped or address


def counted_address(client: str) -> str:
    """The client's address as the per-address limits count it: an IPv6 client by its /64, which one machine
    usually has whole (so it cannot step around a limit by changing addresses within it)."""
    address = parse_address(client)
    if address is None:
        return client or "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


def is_trusted(address: Address | None, networks: Iterable[Network]) -> bool:
    return address is not None and any(address in network for network in networks)


def client_address(peer: str, forwarded_for: list[str], real_ip: str | None, networks: tuple[Network, ...]) -> str:
    """The client's address, given the direct peer's, the ``X-Forwarded-For`` entries (left to right) and
    ``X-Real-IP``."""
    if not is_trusted(parse_address(peer), networks):
        return peer
    client: Address | None = None
    for entry in reversed(forwarded_for):
        address = parse_address(entry)
        if address is None:
            break  # junk where a proxy would have written an address: stop at the last hop known good
        client = address
        if not is_trusted(address, networks):
            break
    if client is None and real_ip:
        client = parse_address(real_ip)
    return str(client) if client is not None else peer


class TrustedProxyMiddleware:
    """ASGI middleware: sets ``scope["client"]`` to the real client and drops forwarding headers nobody vouches
    for (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        networks = trusted_networks(tuple(settings.TRUSTED_PROXIES))
        peer = scope.get("client") or None
        headers = list(scope.get("headers", ()))
        if peer is None or not is_trusted(parse_address(str(peer[0])), networks):
            kept = [(name, value) for name, value in headers if name.lower() not in FORWARDING_HEADERS]
            if len(kept) != len(headers):
                scope = {**scope, "headers": kept}
            await self.app(scope, receive, send)
            return
        forwarded_for: list[str] = []
        real_ip = None
        for name, value in headers:
            lowered = name.lower()
            if lowered == b"x-forwarded-for":
                forwarded_for.extend(value.decode("latin-1").split(","))
            elif lowered == b"x-real-ip":
                real_ip = value.decode("latin-1")
        client = client_address(str(peer[0]), forwarded_for, real_ip, networks)
        if client != peer[0]:
            scope = {**scope, "client": [client, 0]}
        await self.app(scope, receive, send)

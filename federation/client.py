"""The one way federation talks to other servers: small HTTP(S) requests that cannot be turned against the
server's own network.

Every request resolves the host itself and refuses it when any of its addresses is not global (private,
loopback, link-local, multicast, reserved; an IPv4 address mapped into IPv6 counts as itself), then connects to
the address it checked, so a DNS answer cannot change between the check and the connection. Only https is
spoken, on any port. ``SOCIALSITE_FEDERATION_INSECURE`` (tests and trials on loopback, refused by
``check --deploy``) allows http and every address. A response may be at most ``MAX_BYTES``, each request takes
at most ``TIMEOUT_SECONDS`` in all, a GET follows at most ``MAX_REDIRECTS`` redirects (each checked anew), and
a POST none.

A fetched document must name itself (``id``) on the host that served it: a server cannot speak for another.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from django.conf import settings

from federation import contexts, identities, keypairs, signatures

MAX_BYTES = 1024 * 1024
TIMEOUT_SECONDS = 10.0
MAX_REDIRECTS = 3
USER_AGENT = "socialsite (+ActivityPub)"
ACCEPT = f"{contexts.ACTIVITY_JSON}, {contexts.LD_JSON}"


class FetchError(Exception):
    """A remote request that was refused, failed, timed out, or answered something unusable. ``transient``: the
    cause may pass (no connection, a time-out, a name that did not resolve, a 5xx or 429), so the same request may
    succeed later; a refusal, a 4xx, a body too large or of the wrong type will not."""

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


@dataclass(frozen=True, slots=True)
class Response:
    url: str  # after redirects
    status: int
    content_type: str
    body: bytes

    def json(self) -> dict[str, Any]:
        try:
            document = json.loads(self.body)
        except (ValueError, UnicodeDecodeError):
            raise FetchError(f"{self.url} did not answer JSON") from None
        if not isinstance(document, dict):
            raise FetchError(f"{self.url} did not answer a JSON object")
        return document


def insecure() -> bool:
    return bool(getattr(settings, "SOCIALSITE_FEDERATION_INSECURE", False))


def _allowed_address(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def resolve(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, address to connect to) of ``url``; raises ``FetchError`` when it may not be
    fetched."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        raise FetchError(f"refused: {url!r} is not a URL") from None
    scheme = parts.scheme.lower()
    if scheme != "https" and not (scheme == "http" and insecure()):
        raise FetchError(f"refused: {url} is not https")
    if not host:
        raise FetchError(f"refused: {url} names no host")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError:
        raise FetchError(f"refused: {url!r} has no valid port") from None
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except UnicodeError:  # a name that cannot be encoded (a subclass of ValueError, not of OSError)
        raise FetchError(f"{host} cannot be resolved") from None
    except (OSError, ValueError):  # a DNS failure may pass
        raise FetchError(f"{host} cannot be resolved", transient=True) from None
    addresses = [info[4][0] for info in found]
    if not addresses:
        raise FetchError(f"{host} cannot be resolved", transient=True)
    if not insecure() and not all(_allowed_address(address) for address in addresses):
        raise FetchError(f"refused: {host} is not a public address")
    return scheme, host, port, addresses[0]


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def _once(
    method: str,
    url: str,
    resolved: tuple[str, str, int, str],
    headers: dict[str, str],
    body: bytes | None,
    deadline: float,
    max_bytes: int = MAX_BYTES,
) -> Response:
    """One request to ``url``, connected to the address ``resolve`` checked (``resolved``)."""
    scheme, host, port, address = resolved
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise FetchError(f"{url} took too long", transient=True)
    connection_class = _PinnedHTTPS if scheme == "https" else _PinnedHTTP
    connection = connection_class(host, port, address, remaining)
    try:
        connection.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        sent = {"Host": parts.netloc, "User-Agent": USER_AGENT, **headers}
        if body is not None:
            sent["Content-Length"] = str(len(body))
        for name, value in sent.items():
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        chunks: list[bytes] = []
        size = 0
        while chunk := response.read(64 * 1024):
            size += len(chunk)
            if size > max_bytes:
                raise FetchError(f"{url} answered more than {max_bytes} bytes")
            if time.monotonic() > deadline:
                raise FetchError(f"{url} took too long", transient=True)
            chunks.append(chunk)
        return (
            Response(
                url=url,
                status=response.status,
                content_type=(response.getheader("Content-Type") or "").split(";")[0].strip().lower(),
                body=b"".join(chunks),
            )
            if response.status < 300 or response.status >= 400
            else Response(
                url=urljoin(url, response.getheader("Location") or ""),
                status=response.status,
                content_type="",
                body=b"",
            )
        )
    except (OSError, http.client.HTTPException) as error:  # no connection, reset, time-out, cut short
        raise FetchError(f"{url}: {error}", transient=True) from None
    except ValueError as error:
        raise FetchError(f"{url}: {error}") from None
    finally:
        connection.close()


def _signed(method: str, url: str, signer: int | None, body: bytes | None, key_id: str | None) -> dict[str, str]:
    if signer is None:
        return {}
    return signatures.sign(method=method, url=url, key_id=key_id or "", key=keypairs.private_key(signer), body=body)


def get(
    url: str,
    *,
    accept: str = ACCEPT,
    signer: int | None = None,
    key_id: str | None = None,
    max_bytes: int = MAX_BYTES,
    timeout: float = TIMEOUT_SECONDS,
) -> Response:
    """GET ``url`` (signed by account ``signer``'s key ``key_id`` when given, for servers that require signed
    fetches), following up to ``MAX_REDIRECTS`` redirects, within ``timeout`` seconds in all and ``max_bytes``
    of body (a picture may be larger than a document, a collection's count smaller). Raises ``FetchError`` for a
    refusal, a failure or an answer other than 200."""
    deadline = time.monotonic() + timeout
    for _ in range(MAX_REDIRECTS + 1):
        resolved = resolve(url)  # before anything is built from the URL
        headers = {"Accept": accept, **_signed("GET", url, signer, None, key_id)}
        response = _once("GET", url, resolved, headers, None, deadline, max_bytes)
        if 300 <= response.status < 400:
            if not response.url or response.url == url:
                raise FetchError(f"{url} redirects nowhere")
            url = response.url
            continue
        if response.status != 200:
            transient = response.status >= 500 or response.status == 429
            raise FetchError(f"{url} answered {response.status}", transient=transient)
        return response
    raise FetchError(f"{url} redirects more than {MAX_REDIRECTS} times")


def post(url: str, document: dict[str, Any], *, signer: int, key_id: str) -> int:
    """POST ``document`` as ActivityPub JSON to ``url``, signed by ``signer``'s key ``key_id``; returns the status
    code. Raises ``FetchError`` when it cannot be sent."""
    resolved = resolve(url)
    body = json.dumps(document, separators=(",", ":")).encode()
    headers = {"Content-Type": contexts.ACTIVITY_JSON, **_signed("POST", url, signer, body, key_id)}
    return _once("POST", url, resolved, headers, body, time.monotonic() + TIMEOUT_SECONDS).status


def same_host(first: str, second: str) -> bool:
    """Whether two URLs name the same host (and port)."""
    try:
        netloc = urlsplit(first).netloc.lower()
        return bool(netloc) and netloc == urlsplit(second).netloc.lower()
    except ValueError:
        return False


def fetch_object(
    url: str,
    *,
    signer: int | None = keypairs.INSTANCE_UID,
    key_id: str | None = None,
    max_bytes: int = MAX_BYTES,
    timeout: float = TIMEOUT_SECONDS,
) -> dict[str, Any]:
    """The ActivityPub document at ``url``, checked to name itself on the host that served it. Signed by the
    instance actor unless told otherwise. Raises ``FetchError``."""
    if signer is not None and key_id is None:
        key_id = identities.key_id(identities.instance_actor())
    response = get(url, signer=signer, key_id=key_id, max_bytes=max_bytes, timeout=timeout)
    if response.content_type not in (*contexts.ACTIVITY_TYPES, "application/json"):
        raise FetchError(f"{response.url} is not an ActivityPub document ({response.content_type})")
    document = response.json()
    identifier = document.get("id")
    if not isinstance(identifier, str) or not same_host(identifier, response.url):
        raise FetchError(f"{response.url} served a document whose id is not on its host")
    return document

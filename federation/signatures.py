"""HTTP Signatures as Mastodon uses them (draft-cavage-http-signatures, ``rsa-sha256``) and the ``Digest`` header.

Outgoing requests sign ``(request-target) host date`` plus ``digest`` when they carry a body. An incoming request
is accepted when its ``Signature`` names a key, covers at least ``(request-target)``, ``host`` and ``date`` (and
``digest`` for a body, whose digest must match), its date is within ``MAX_AGE_SECONDS`` in the past and
``MAX_SKEW_SECONDS`` in the future, and the signature verifies with the key. Nothing here does I/O: the caller
finds the key (``federation.services.actors``).
"""

from __future__ import annotations

import base64
import hashlib
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime
from urllib.parse import urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

ALGORITHM = "rsa-sha256"
# Mastodon: signed within the past 12 hours, at most an hour ahead of this server's clock.
MAX_AGE_SECONDS = 12 * 3600
MAX_SKEW_SECONDS = 3600
REQUIRED = ("(request-target)", "host", "date")
MAX_SIGNATURE_HEADER = 4096

_PARAM = re.compile(r'\s*([A-Za-z]+)\s*=\s*"([^"]*)"\s*(?:,|$)')


class SignatureError(Exception):
    """A request whose signature is missing, malformed, stale or wrong; the message says which."""


@dataclass(frozen=True, slots=True)
class Signature:
    key_id: str
    algorithm: str
    headers: tuple[str, ...]
    signature: bytes


def digest(body: bytes) -> str:
    """The ``Digest`` header of ``body``: ``SHA-256=<base64>``."""
    return "SHA-256=" + base64.b64encode(hashlib.sha256(body).digest()).decode()


def _signing_string(names: tuple[str, ...], method: str, target: str, headers: Mapping[str, str]) -> bytes:
    lines = []
    for name in names:
        if name == "(request-target)":
            lines.append(f"(request-target): {method.lower()} {target}")
        else:
            if name not in headers:
                raise SignatureError(f"signed header {name!r} is missing")
            lines.append(f"{name}: {headers[name]}")
    return "\n".join(lines).encode()


def sign(
    *, method: str, url: str, key_id: str, key: rsa.RSAPrivateKey, body: bytes | None = None, now: float | None = None
) -> dict[str, str]:
    """The headers that sign a request for ``url``: ``Host``, ``Date``, ``Digest`` (with a body) and
    ``Signature``."""
    parts = urlsplit(url)
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    headers = {"host": parts.netloc, "date": formatdate(now if now is not None else time.time(), usegmt=True)}
    names: tuple[str, ...] = ("(request-target)", "host", "date")
    if body is not None:
        headers["digest"] = digest(body)
        names += ("digest",)
    raw = key.sign(_signing_string(names, method, target, headers), padding.PKCS1v15(), hashes.SHA256())
    headers["signature"] = (
        f'keyId="{key_id}",algorithm="{ALGORITHM}",headers="{" ".join(names)}",'
        f'signature="{base64.b64encode(raw).decode()}"'
    )
    return {name.title(): value for name, value in headers.items()}


def parse(header: str) -> Signature:
    """The parts of a ``Signature`` header; raises ``SignatureError`` when it is malformed."""
    if not header or len(header) > MAX_SIGNATURE_HEADER:
        raise SignatureError("no signature")
    params = {name.lower(): value for name, value in _PARAM.findall(header)}
    if "keyid" not in params or "signature" not in params:
        raise SignatureError("the signature has no keyId or no signature")
    algorithm = params.get("algorithm", ALGORITHM).lower()
    # hs2019 names no algorithm of its own; Mastodon reads it as rsa-sha256 for RSA keys.
    if algorithm not in (ALGORITHM, "hs2019"):
        raise SignatureError(f"unsupported algorithm {algorithm!r}")
    try:
        raw = base64.b64decode(params["signature"], validate=True)
    except ValueError:
        raise SignatureError("the signature is not base64") from None
    names = tuple(params.get("headers", "date").lower().split())
    return Signature(key_id=params["keyid"], algorithm=algorithm, headers=names, signature=raw)


def verify(
    *,
    signature: Signature,
    method: str,
    target: str,
    headers: Mapping[str, str],
    body: bytes | None,
    public_key_pem: str,
    now: float | None = None,
) -> None:
    """Check a parsed ``signature`` of a request (``headers`` with lowercased names, ``target`` its path and
    query). Returns when it holds; raises ``SignatureError`` otherwise."""
    missing = [name for name in REQUIRED if name not in signature.headers]
    if body is not None and "digest" not in signature.headers:
        missing.append("digest")
    if missing:
        raise SignatureError(f"the signature does not cover {', '.join(missing)}")
    if body is not None:
        given = dict(part.strip().split("=", 1) for part in headers.get("digest", "").split(",") if "=" in part)
        expected = digest(body).split("=", 1)[1]
        if {name.lower(): value for name, value in given.items()}.get("sha-256") != expected:
            raise SignatureError("the digest does not match the body")
    try:
        signed_at = parsedate_to_datetime(headers.get("date", "")).timestamp()
    except (TypeError, ValueError):
        raise SignatureError("the date is missing or malformed") from None
    current = time.time() if now is None else now
    if signed_at < current - MAX_AGE_SECONDS or signed_at > current + MAX_SKEW_SECONDS:
        raise SignatureError("the signature is too old or from the future")
    try:
        key = serialization.load_pem_public_key(public_key_pem.encode())
    except ValueError:
        raise SignatureError("the actor's key cannot be read") from None
    if not isinstance(key, rsa.RSAPublicKey):
        raise SignatureError("the actor's key is not an RSA key")
    try:
        key.verify(
            signature.signature,
            _signing_string(signature.headers, method, target, headers),
            padding.PKCS1v15(),
            hashes.SHA256(),
        )
    except InvalidSignature:
        raise SignatureError("the signature does not verify") from None

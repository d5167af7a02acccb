"""HTTP Signatures (draft-cavage, rsa-sha256) as Mastodon signs and checks them (step 2 of issue 22)."""

from __future__ import annotations

import time

import pytest

from federation import keypairs, signatures

URL = "https://other.example/users/bob/inbox"
BODY = b'{"type":"Follow"}'


@pytest.fixture
def key(db):
    return keypairs.key_pair(7)


def _signed(key, body=BODY, now=None):
    headers = signatures.sign(
        method="POST",
        url=URL,
        key_id="https://here.example/@alice#main-key",
        key=keypairs.private_key(7),
        body=body,
        now=now,
    )
    return {name.lower(): value for name, value in headers.items()}


def _verify(key, headers, body=BODY, target="/users/bob/inbox"):
    signatures.verify(
        signature=signatures.parse(headers["signature"]),
        method="POST",
        target=target,
        headers=headers,
        body=body,
        public_key_pem=key.public_key_pem,
    )


def test_a_signed_post_covers_target_host_date_and_digest_and_verifies(key):
    headers = _signed(key)
    assert headers["host"] == "other.example"
    assert headers["digest"] == signatures.digest(BODY) and headers["digest"].startswith("SHA-256=")
    parsed = signatures.parse(headers["signature"])
    assert parsed.headers == ("(request-target)", "host", "date", "digest") and parsed.algorithm == "rsa-sha256"
    _verify(key, headers)


@pytest.mark.parametrize(
    "change",
    ["body", "target", "host", "digest", "other key", "stale", "future", "uncovered digest"],
)
def test_a_changed_or_stale_request_is_refused(key, change):
    headers = _signed(key, now=time.time() - 13 * 3600 if change == "stale" else None)
    body, target = BODY, "/users/bob/inbox"
    if change == "body":
        body = b'{"type":"Delete"}'
    elif change == "target":
        target = "/users/carol/inbox"
    elif change == "host":
        headers["host"] = "evil.example"
    elif change == "digest":
        headers["digest"] = signatures.digest(b"other")
    elif change == "future":
        headers = _signed(key, now=time.time() + 2 * 3600)
    elif change == "uncovered digest":
        headers["signature"] = headers["signature"].replace(" digest", "")
    if change == "other key":
        other = keypairs.key_pair(8)
        with pytest.raises(signatures.SignatureError):
            _verify(other, headers)
        return
    with pytest.raises(signatures.SignatureError):
        _verify(key, headers, body=body, target=target)


@pytest.mark.parametrize(
    "header",
    ["", "garbage", 'keyId="x"', 'keyId="x",algorithm="hmac-sha1",signature="AAAA"', 'keyId="x",signature="!!"'],
)
def test_a_malformed_signature_header_is_refused(header):
    with pytest.raises(signatures.SignatureError):
        signatures.parse(header)

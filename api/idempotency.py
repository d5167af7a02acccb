"""``Idempotency-Key`` for posting (Mastodon keeps a key's result for an hour): a client that retries a post
whose answer it lost gets the status it already made, never a second one.

Kept in the Django cache (the job Redis, like the rate limits), per account and hashed, never in the social
data: ``cache:1:api-idempotency:<sha256 of account and key>`` -> the status id, or ``pending`` while the
first request is still posting.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache

TTL_SECONDS = 3600
PENDING = "pending"
MAX_KEY_LENGTH = 200


def _key(account_pk: int, key: str) -> str:
    digest = hashlib.sha256(f"{account_pk}:{key}".encode()).hexdigest()
    return f"api-idempotency:{digest}"


def claim(account_pk: int, key: str) -> int | str | None:
    """Claim ``key`` for a new post: None when this request is the first (it must then ``record`` or
    ``release``), else the status id an earlier request made, or ``PENDING`` while it is still at work."""
    if cache.add(_key(account_pk, key), PENDING, timeout=TTL_SECONDS):
        return None
    found = cache.get(_key(account_pk, key))
    if found is None:
        # Expired between the two commands: this request is the first after all.
        return None if cache.add(_key(account_pk, key), PENDING, timeout=TTL_SECONDS) else PENDING
    return int(found) if str(found).isdigit() else PENDING


def record(account_pk: int, key: str, status_id: int) -> None:
    cache.set(_key(account_pk, key), str(status_id), timeout=TTL_SECONDS)


def release(account_pk: int, key: str) -> None:
    """The post failed: a retry with the same key may try again."""
    cache.delete(_key(account_pk, key))

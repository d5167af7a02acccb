"""Rate limits of the client API (``socialsite.ratelimits``): every call counts against its token (300 per 5
minutes by default, per address without a token), and the site's per-action limits (posts, follows, sign-ups)
count API calls against the token's owner, so the site and the apps share one counter. Refusals are Mastodon's
429; every answer carries ``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset`` (ISO 8601, as Mastodon sends it)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime

from django.http import HttpRequest

from api.errors import ApiError
from socialsite import ratelimits


def headers(verdict: ratelimits.Verdict) -> dict[str, str]:
    reset = datetime.fromtimestamp(verdict.reset_at, UTC)
    return {
        "X-RateLimit-Limit": str(verdict.limit),
        "X-RateLimit-Remaining": str(verdict.remaining),
        "X-RateLimit-Reset": reset.strftime("%Y-%m-%dT%H:%M:%S.") + f"{reset.microsecond // 1000:03d}Z",
    }


class RateLimited(ApiError):
    def __init__(self, verdict: ratelimits.Verdict) -> None:
        super().__init__(429, verdict.message())
        self.headers = {**headers(verdict), "Retry-After": str(verdict.retry_after())}


def count_call(request: HttpRequest) -> dict[str, str]:
    """Count this call against its token's (or address's) budget: the headers to send, or ``RateLimited``."""
    attempt = ratelimits.take(request, "api")
    if attempt.refused is not None:
        raise RateLimited(attempt.refused)
    return headers(attempt.verdicts[0]) if attempt.verdicts else {}


@contextlib.contextmanager
def rate_limited(request: HttpRequest, *names: str) -> Iterator[ratelimits.Attempt]:
    """Take a slot of each named limit for the block; a refusal is a 429 before the block runs, and an error
    in the block gives the slots back (nothing happened)."""
    attempt = ratelimits.take(request, *names)
    refused = attempt.refused
    if refused is not None:
        raise RateLimited(refused)
    try:
        yield attempt
    except BaseException:
        attempt.give_back()
        raise

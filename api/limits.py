"""The site's per-action rate limits (``socialsite.ratelimits``: posts, follows) applied to API calls, counted
against the token's owner so the site and the apps share one counter, and refused with Mastodon's 429."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from django.http import HttpRequest

from api.http import ApiError
from socialsite import ratelimits


class RateLimited(ApiError):
    def __init__(self, verdict: ratelimits.Verdict) -> None:
        super().__init__(429, verdict.message())
        self.headers = verdict.headers()


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

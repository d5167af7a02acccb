"""Rate limits: counters in the Django cache (django-redis on ``REDIS_URL``), never in the social data.

Each limit has a name, a rate read from its setting (``"5/15m"``: 5 per 15 minutes; ``s``, ``m``, ``h``, ``d``)
and what it counts per (the client IP, the logged-in account, or the login typed into the log-in form, in the
form log-in compares it: ``socialsite.logins.login_key``):

========  =======================================  ========  ==========================================
name      setting (default)                        per       counted by
========  =======================================  ========  ==========================================
login     ``RATE_LIMIT_LOGIN_FAILURES_PER_LOGIN``  login     ``accounts`` log-in: failures only
login_ip  ``RATE_LIMIT_LOGIN_FAILURES_PER_IP``     IP        ``accounts`` log-in: failures only
signup    ``RATE_LIMIT_SIGNUPS_PER_IP``            IP        ``accounts`` sign-up: accounts made
posts     ``RATE_LIMIT_POSTS_PER_USER``            account   compose and reply: posts made
follows   ``RATE_LIMIT_FOLLOWS_PER_USER``          account   the Follow view: follows (and requests) made
reports   ``RATE_LIMIT_REPORTS_PER_USER``          account   the report view: reports sent
search    ``RATE_LIMIT_SEARCHES_PER_IP``           IP        the search page: searches answered
api       ``RATE_LIMIT_API_PER_TOKEN``             token     the client API: every call (``api.http``)
inbox     ``RATE_LIMIT_INBOX_PER_SERVER``          server    federation's inboxes: signed activities taken
========  =======================================  ========  ==========================================

Windows are fixed: ``period`` seconds long, offset per counted value so that not every counter resets at the
same instant. A window allows ``limit`` actions; the next one is refused until the window ends (``Retry-After``).
Like every fixed-window limiter (Mastodon's rack-attack, django-ratelimit), up to twice the limit can pass
around a window's edge; that is the price of one counter and two round trips per check.

A request *takes* a slot before the action (so a refused request never reaches the service, and concurrent
requests cannot overshoot), and *gives it back* when the action turned out not to count: a form sent back with
errors, or, for the log-in limits that count failures, a successful log-in. Keys (hashed, so no login or address
is stored in clear): ``cache:1:ratelimit:<name>:<window>:<sha256 of the value>``, e.g.
``redis-cli GET 'cache:1:ratelimit:posts:19876:1c0b...'`` -> ``"17"``.

Views use the ``limit`` decorator; ``take`` is the same check for code that is not a view.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import re
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache as once
from functools import wraps
from typing import Any, Literal

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, BaseCache, caches
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme

from socialsite import logins
from socialsite.proxies import counted_address

# What the limiter reads the time from; the tests replace it to move to the next window without waiting.
clock: Callable[[], float] = time.time

# A key outlives its window by this much, so a slow request at the very end still finds its counter.
EXPIRY_GRACE_SECONDS = 60
KEY_PREFIX = "ratelimit"
TOO_MANY = "Too many attempts, try again in {wait}."

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$")

Per = Literal["ip", "user", "login", "token", "server"]


@dataclass(frozen=True)
class Limit:
    name: str
    setting: str
    per: Per


LIMITS: dict[str, Limit] = {
    limit.name: limit
    for limit in (
        Limit("login", "RATE_LIMIT_LOGIN_FAILURES_PER_LOGIN", "login"),
        Limit("login_ip", "RATE_LIMIT_LOGIN_FAILURES_PER_IP", "ip"),
        Limit("signup", "RATE_LIMIT_SIGNUPS_PER_IP", "ip"),
        Limit("posts", "RATE_LIMIT_POSTS_PER_USER", "user"),
        Limit("media", "RATE_LIMIT_MEDIA_PER_USER", "user"),
        Limit("follows", "RATE_LIMIT_FOLLOWS_PER_USER", "user"),
        Limit("reports", "RATE_LIMIT_REPORTS_PER_USER", "user"),
        Limit("search", "RATE_LIMIT_SEARCHES_PER_IP", "ip"),
        Limit("api", "RATE_LIMIT_API_PER_TOKEN", "token"),
        Limit("inbox", "RATE_LIMIT_INBOX_PER_SERVER", "server"),
    )
}


@dataclass(frozen=True)
class Verdict:
    """One counter after a request took its slot."""

    name: str
    limit: int
    count: int
    reset_at: float  # epoch seconds when the window ends

    @property
    def allowed(self) -> bool:
        return self.count <= self.limit

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.count)

    def retry_after(self, now: float | None = None) -> int:
        """Whole seconds until the window ends (at least 1)."""
        return max(1, math.ceil(self.reset_at - (clock() if now is None else now)))

    def message(self) -> str:
        minutes = math.ceil(self.retry_after() / 60)
        return TOO_MANY.format(wait="1 minute" if minutes == 1 else f"{minutes} minutes")

    def headers(self) -> dict[str, str]:
        """``Retry-After`` and the ``X-RateLimit-*`` headers (``Reset`` in epoch seconds, as GitHub does)."""
        return {
            "Retry-After": str(self.retry_after()),
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(math.ceil(self.reset_at)),
        }


def parse_rate(rate: str, *, setting: str = "rate") -> tuple[int, int]:
    """``"5/15m"`` -> (5, 900). Raises ImproperlyConfigured for anything else."""
    match = _RATE.match(rate)
    if not match or int(match[2] or 1) == 0:
        raise ImproperlyConfigured(f"{setting} must look like 5/15m (count/period in s, m, h or d), not {rate!r}.")
    return int(match[1]), int(match[2] or 1) * _PERIODS[match[3]]


def client_ip(request: HttpRequest) -> str:
    """The client's address as the limits count it: an IPv6 client by its /64, which one machine usually has
    whole. ``REMOTE_ADDR`` is the peer, or the client a trusted proxy named (``socialsite.proxies``)."""
    return counted_address(request.META.get("REMOTE_ADDR") or "")


def _value(request: HttpRequest, per: Per) -> str:
    if per == "login":
        # Exactly the form log-in finds the account by (case, spaces and NFKC spellings such as a fullwidth
        # "alice" are one account, so one counter), keyed on the whole field: the form strips before it bounds
        # the length.
        return "login:" + logins.login_key(request.POST.get("username", ""))
    if per == "token":
        # The client API's bearer token (``api.http`` sets ``api_token``), or the address of a call without one.
        token = getattr(request, "api_token", None)
        return f"token:{token.pk}" if token is not None else "ip:" + client_ip(request)
    if per == "server":
        # The other server whose actor signed an activity (``federation.views.inbox`` sets it once verified).
        server = getattr(request, "federation_server", None)
        return f"server:{server}" if server else "ip:" + client_ip(request)
    if per == "user" and request.user.is_authenticated:
        # Who is counted, hashed into a Django cache key by the limiter (never a key of the social data).
        return f"account:{request.user.pk}"
    return "ip:" + client_ip(request)


@once
def counters() -> BaseCache:
    """The cache holding the counters, one for the process. ``django.core.cache.cache`` hands each context its own
    backend, and the web server runs every request in a context of its own: each request built a django-redis
    backend and a Redis client anew (their connection pool is shared), a tenth of a client API call's time in
    the server (issue 20). django-redis' backend is safe to share between threads, as its Redis client is; built
    with ``create_connection``, it is nobody's context's, so the end of a request never closes it."""
    return caches.create_connection(DEFAULT_CACHE_ALIAS)


@receiver(setting_changed)
def _forget_counters(*, setting: str, **_: Any) -> None:
    # A test pointing CACHES elsewhere (at a Redis of its own, or at one that is down) gets a backend built anew.
    if setting == "CACHES":
        counters.cache_clear()


@dataclass
class Attempt:
    """What one request took: a verdict per limit, and the counters to decrement to give the slots back."""

    verdicts: list[Verdict]
    keys: list[str]

    @property
    def refused(self) -> Verdict | None:
        """The counter that said no (the one with the longest wait), or None."""
        over = [verdict for verdict in self.verdicts if not verdict.allowed]
        return max(over, key=lambda verdict: verdict.reset_at) if over else None

    def give_back(self) -> None:
        """Return the slots: the action did not happen, or does not count. Idempotent."""
        keys, self.keys = self.keys, []
        for key in keys:
            # ValueError: the window ended meanwhile, its counter is gone and there is nothing to give back.
            with contextlib.suppress(ValueError):
                counters().decr(key)


def take(request: HttpRequest, *names: str) -> Attempt:
    """Count this request against each named limit. When one refuses, all are given back, so a refused request
    leaves every counter as it found it. With ``RATE_LIMITS_ENABLED`` off nothing is counted."""
    attempt = Attempt(verdicts=[], keys=[])
    if not settings.RATE_LIMITS_ENABLED:
        return attempt
    now = clock()
    for name in names:
        limit = LIMITS[name]
        count, period = parse_rate(getattr(settings, limit.setting), setting=limit.setting)
        digest = hashlib.sha256(_value(request, limit.per).encode()).hexdigest()
        offset = zlib.crc32(digest.encode()) % period
        window = int((now - offset) // period)
        key = f"{KEY_PREFIX}:{name}:{window}:{digest}"
        reset_at = (window + 1) * period + offset
        timeout = math.ceil(reset_at - now) + EXPIRY_GRACE_SECONDS
        # INCR of an existing counter (one round trip: every request but a window's first); the window's first
        # request finds none and creates it with its expiry (SET NX, then INCR). With Redis down the cache raises
        # redis' ConnectionError and the site's 503 page answers: nothing gets by unlimited.
        store = counters()
        try:
            used = store.incr(key)
        except ValueError:
            store.add(key, 0, timeout=timeout)
            try:
                used = store.incr(key)
            except ValueError:  # evicted between the two commands: start the window again
                store.add(key, 1, timeout=timeout)
                used = 1
        attempt.keys.append(key)
        attempt.verdicts.append(Verdict(name=name, limit=count, count=used, reset_at=reset_at))
    if attempt.refused is not None:
        attempt.give_back()
    return attempt


# --- answering a refused request -----------------------------------------------------------------------------

Page = Callable[..., HttpResponse]


def refusal(
    request: HttpRequest, verdict: Verdict, page: Page | None = None, *args: Any, **kwargs: Any
) -> HttpResponse:
    """The 429 for a refused request: JSON for JSON clients; for htmx the message as text (nothing is swapped,
    and site.js shows it as a notice, leaving what was typed in place); otherwise ``page`` (the view's own form
    with the message, called as ``page(request, message, *view_args)``) or the site's 429 page."""
    message = verdict.message()
    if request.headers.get("Accept", "").startswith("application/json"):
        response: HttpResponse = JsonResponse({"error": "rate_limited", "message": message})
    elif request.headers.get("HX-Request") == "true":
        response = HttpResponse(message, content_type="text/plain; charset=utf-8")
    elif page is not None:
        response = page(request, message, *args, **kwargs)
    else:
        referer = request.headers.get("Referer", "")
        safe = url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()})
        context = {"message": message, "back": referer if safe else ""}
        response = HttpResponse(render_to_string("429.html", context, request=request))
    response.status_code = 429
    for header, value in verdict.headers().items():
        response[header] = value
    return response


def limit(
    *names: str,
    methods: Sequence[str] = ("POST",),
    counts: Literal["successes", "failures"] = "successes",
    page: Page | None = None,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Limit a view by the named limits (``LIMITS``), for the given methods.

    The view runs only when every limit has room, so a refused request has no side effect; it is answered 429
    (see ``refusal``). ``counts="successes"``: an answer of 400 or more gives the slot back (the form had errors,
    nothing happened). ``counts="failures"``: an answer under 400 gives it back (log-in counts failed attempts).
    """
    for name in names:
        if name not in LIMITS:
            raise ImproperlyConfigured(f"Unknown rate limit {name!r}; known: {', '.join(LIMITS)}.")
    limited_methods = {method.upper() for method in methods}

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in limited_methods:
                return view(request, *args, **kwargs)
            attempt = take(request, *names)
            refused = attempt.refused
            if refused is not None:
                return refusal(request, refused, page, *args, **kwargs)
            try:
                response = view(request, *args, **kwargs)
            except Exception:
                attempt.give_back()  # a 404 or an error page: nothing was done
                raise
            if (response.status_code >= 400) == (counts == "successes"):
                attempt.give_back()
            return response

        return wrapper

    return decorator

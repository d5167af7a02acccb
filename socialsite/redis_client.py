"""The one Redis client factory of socialsite.

Every Redis connection of the site comes from here: the social data (``get_redis``, text replies), the job
queue (``get_job_redis``, bytes replies, as RQ requires) and, for the streaming app, asyncio clients
(``get_async_redis``). Clients are made on first use, never at import time, and cached per process and URL;
redis-py's pools are thread-safe and reset themselves after a fork (RQ forks a work-horse per job).

When ``settings.EMBEDDED_REDIS_DIR`` is set (no ``REDIS_URL`` in the environment), the first call starts the
embedded server (see ``socialsite.embedded_redis``).
"""

from __future__ import annotations

import asyncio
import threading
import weakref

import redis
import redis.asyncio
from django.conf import settings

from socialsite import embedded_redis

# Ordinary commands answer in microseconds; a few seconds means the server is gone or wedged, and the page
# should say so (503) instead of hanging. Subscribers and blocking reads pass socket_timeout=None instead
# (DESIGN.md: redis-py 8 defaults to 5 s, which breaks idle pub/sub connections).
COMMAND_TIMEOUT_SECONDS = 5.0
CONNECT_TIMEOUT_SECONDS = 2.0
HEALTH_CHECK_SECONDS = 30

_lock = threading.Lock()
_clients: dict[tuple[str, bool], redis.Redis] = {}
_async_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, redis.asyncio.Redis]] = (
    weakref.WeakKeyDictionary()
)


def redis_url() -> str:
    """The URL of the site's Redis, starting the embedded server first when the site uses it."""
    if settings.EMBEDDED_REDIS_DIR is not None:
        embedded_redis.ensure_running(settings.EMBEDDED_REDIS_DIR)
    return settings.REDIS_URL


def _client(decode_responses: bool) -> redis.Redis:
    key = (settings.REDIS_URL, decode_responses)
    client = _clients.get(key)
    if client is not None:
        return client
    with _lock:
        client = _clients.get(key)
        if client is None:
            client = redis.Redis.from_url(
                redis_url(),
                decode_responses=decode_responses,
                socket_timeout=COMMAND_TIMEOUT_SECONDS,
                socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
                health_check_interval=HEALTH_CHECK_SECONDS,
                protocol=2,
            )
            _clients[key] = client
    return client


def get_redis() -> redis.Redis:
    """The process-wide client for the social data; replies are ``str``."""
    return _client(decode_responses=True)


def get_job_redis() -> redis.Redis:
    """The process-wide client for the RQ job queue; replies are ``bytes`` as RQ requires."""
    return _client(decode_responses=False)


def get_pubsub_redis() -> redis.Redis:
    """A new client for a long-lived subscriber: no read timeout, so an idle subscription stays open."""
    return redis.Redis.from_url(
        redis_url(),
        decode_responses=True,
        socket_timeout=None,
        socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
        protocol=2,
    )


def get_async_redis(*, subscriber: bool = False) -> redis.asyncio.Redis:
    """An asyncio client bound to the running event loop (asyncio clients cannot cross loops).

    ``subscriber=True`` gives a fresh client without a read timeout, for a pub/sub connection that may stay
    idle for minutes.
    """
    if subscriber:
        return redis.asyncio.Redis.from_url(
            redis_url(),
            decode_responses=True,
            socket_timeout=None,
            socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
            protocol=2,
        )
    loop = asyncio.get_running_loop()
    per_loop = _async_clients.setdefault(loop, {})
    client = per_loop.get(settings.REDIS_URL)
    if client is None:
        client = redis.asyncio.Redis.from_url(
            redis_url(),
            decode_responses=True,
            socket_timeout=COMMAND_TIMEOUT_SECONDS,
            socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
            health_check_interval=HEALTH_CHECK_SECONDS,
            protocol=2,
        )
        per_loop[settings.REDIS_URL] = client
    return client


def reset() -> None:
    """Forget the cached clients (tests that point the site at another server call this)."""
    with _lock:
        for client in _clients.values():
            client.close()
        _clients.clear()
    _async_clients.clear()


# Errors meaning "Redis is not there right now": pages answer 503 for these instead of a traceback.
UNAVAILABLE_ERRORS: tuple[type[Exception], ...] = (
    redis.ConnectionError,
    redis.TimeoutError,
    embedded_redis.EmbeddedRedisError,
)

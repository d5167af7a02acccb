"""The one Redis client factory of socialsite.

Every Redis connection of the site comes from here:

- ``get_redis``: the social data (text replies). With ``settings.REDIS_CLUSTER_URL`` it is a
  ``redis.cluster.RedisCluster`` that discovers every node from those named (one, or several separated by commas),
  and survives a primary's failover by refreshing its slot map and retrying (``CLUSTER_RETRIES``); otherwise a
  plain client of ``REDIS_URL``. The keys carry hash tags and every atomic step touches one slot
  (``timelines.keys``), so the same code runs on both.
- ``get_job_redis``: the RQ job queue (bytes replies, as RQ requires), always ``REDIS_URL``: RQ does not
  support Redis Cluster, and the Django cache lives there too.
- ``get_async_redis(subscriber=True)`` and ``get_pubsub_redis``: a long-lived subscriber to the event channel,
  without a read timeout. On a cluster it is a plain client of a node ``REDIS_CLUSTER_URL`` names: a classic
  ``PUBLISH`` reaches the subscribers of every node, so one subscription per process sees every event, and
  redis-py's asyncio cluster client has no pub/sub. Sharded pub/sub (Redis 7) was not chosen: the embedded and
  test servers are Redis 6.2, and one channel read by every process gains nothing from sharding.

Clients are made on first use, never at import time, and cached per process and URL; redis-py's pools are
thread-safe and reset themselves after a fork (RQ forks a work-horse per job).

The embedded Redis (no ``REDIS_URL``) is started on first use only where ``settings.EMBEDDED_REDIS_AUTOSTART``
allows it: ``manage.py`` commands (RQ workers included), which check again at most once a second
(``ENSURE_EVERY_SECONDS``) and start it again when it is down. The web server's processes never start it
(``socialsite.asgi`` turns it off, and ``serve`` starts the server before the web server): starting a server runs
a subprocess and waits, which must never happen on an event loop. Async clients never start it either.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import redis
import redis.asyncio
import redis.asyncio.cluster
import redis.asyncio.retry
from django.conf import settings
from redis.backoff import ExponentialBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import RedisClusterException
from redis.retry import Retry

from socialsite import embedded_redis

# Ordinary commands answer in microseconds; a few seconds means the server is gone or wedged, and the page
# should say so (503) instead of hanging. Subscribers and blocking reads pass socket_timeout=None instead
# (DESIGN.md: redis-py 8 defaults to 5 s, which breaks idle pub/sub connections).
COMMAND_TIMEOUT_SECONDS = 5.0
CONNECT_TIMEOUT_SECONDS = 2.0
HEALTH_CHECK_SECONDS = 30
# A cluster command that meets a dead node (connection refused or timed out), CLUSTERDOWN or an uncovered slot
# refreshes the slot map and is tried again, this many times (redis-py's ``Retry``, its public API; the cluster
# client uses only its count). While a primary's failover lasts (cluster-node-timeout plus the election, about
# 2.5 s with a 1 s timeout) every try fails at once and the page answers 503; the first command after the replica's
# promotion finds the new primary on its second try. More tries would not shorten the window, only hold requests.
CLUSTER_RETRIES = 3

# How often a process that may start the embedded Redis checks that it runs (``redis_url``).
ENSURE_EVERY_SECONDS = 1.0

_lock = threading.Lock()
_ensured_at: dict[Path, float] = {}
_clients: dict[tuple[str, bool], Any] = {}
_async_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, redis.asyncio.Redis]] = (
    weakref.WeakKeyDictionary()
)


def redis_url() -> str:
    """The URL of the site's single Redis (jobs, cache; and the social data without a cluster), starting the
    embedded server first where this process may.

    That check (a PING on a new connection, about 2 ms) is made at most every ``ENSURE_EVERY_SECONDS`` per
    directory: every ``get_redis()`` of an RQ job or a ``manage.py`` command paid it, several times per job. In
    between, a server that died answers as it does to the web processes (redis' ``ConnectionError``) until the
    next check starts it again, or ``serve``'s supervisor does."""
    directory = settings.EMBEDDED_REDIS_DIR
    if directory is not None and settings.EMBEDDED_REDIS_AUTOSTART:
        now = time.monotonic()
        checked = _ensured_at.get(directory)
        if checked is None or now - checked >= ENSURE_EVERY_SECONDS:
            embedded_redis.ensure_running(directory, embedded_persistence())
            _ensured_at[directory] = now
    return settings.REDIS_URL


def embedded_persistence() -> embedded_redis.Persistence:
    """How the embedded Redis keeps its data, from the settings (``SOCIALSITE_REDIS_APPEND*``)."""
    return embedded_redis.Persistence(
        appendonly=settings.EMBEDDED_REDIS_APPENDONLY, appendfsync=settings.EMBEDDED_REDIS_APPENDFSYNC
    )


def _checked(url: str) -> str:
    """``url``, after refusing the embedded server's socket when another user could have put it there
    (``embedded_redis.check_socket``). Processes that start the server check it in ``ensure_running``; this covers
    those that only connect (the web processes). A few ``stat`` calls, made when a client is created."""
    if settings.EMBEDDED_REDIS_DIR is not None and url == settings.REDIS_URL and url.startswith("unix://"):
        embedded_redis.check_socket(Path(urlsplit(url).path))
    return url


def is_cluster() -> bool:
    """Whether the social data lives on a Redis Cluster."""
    return bool(settings.REDIS_CLUSTER_URL)


def _options(decode_responses: bool) -> dict[str, Any]:
    return {
        "decode_responses": decode_responses,
        "socket_timeout": COMMAND_TIMEOUT_SECONDS,
        "socket_connect_timeout": CONNECT_TIMEOUT_SECONDS,
        "protocol": 2,
    }


def cluster_urls(url: str | None = None) -> list[str]:
    """The node URLs of ``REDIS_CLUSTER_URL`` (one, or several separated by commas): where discovery and the
    subscriber start. Naming more than one lets a process that starts while the first is down still find the
    cluster."""
    value = settings.REDIS_CLUSTER_URL if url is None else url
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def _cluster_options(url: str) -> dict[str, Any]:
    """``RedisCluster.from_url``'s arguments besides its first node's URL: the other nodes, and the retries."""
    others = [urlsplit(other) for other in cluster_urls(url)[1:]]
    return {
        "startup_nodes": [ClusterNode(node.hostname, node.port or 6379) for node in others],
        "retry": Retry(ExponentialBackoff(cap=1.0, base=0.05), CLUSTER_RETRIES),
    }


def _client(url: str, decode_responses: bool, *, cluster: bool) -> Any:
    key = (url, decode_responses)
    client = _clients.get(key)
    if client is not None:
        return client
    with _lock:
        client = _clients.get(key)
        if client is None:
            if cluster:
                try:
                    client = RedisCluster.from_url(
                        cluster_urls(url)[0], **_cluster_options(url), **_options(decode_responses)
                    )
                except RedisClusterException as error:
                    # Discovery found no node answering: the same as a single server being down (a 503).
                    raise redis.ConnectionError(f"No node of the Redis Cluster at {url} answers: {error}") from None
            else:
                client = redis.Redis.from_url(
                    _checked(url), health_check_interval=HEALTH_CHECK_SECONDS, **_options(decode_responses)
                )
            _clients[key] = client
    return client


def get_redis() -> redis.Redis:
    """The process-wide client for the social data (a ``RedisCluster`` on a cluster); replies are ``str``."""
    if is_cluster():
        return _client(settings.REDIS_CLUSTER_URL, True, cluster=True)
    return _client(redis_url(), True, cluster=False)


def get_job_redis() -> redis.Redis:
    """The process-wide client for the RQ job queue; replies are ``bytes`` as RQ requires."""
    return _client(redis_url(), False, cluster=False)


def _subscriber_url(attempt: int = 0) -> str:
    """The node a subscriber connects to: on a cluster, each of ``REDIS_CLUSTER_URL``'s nodes in turn as
    ``attempt`` grows, so a subscriber whose node died reaches another (any node relays every PUBLISH)."""
    urls = cluster_urls()
    return urls[attempt % len(urls)] if urls else settings.REDIS_URL


def get_pubsub_redis() -> redis.Redis:
    """A new client for a long-lived subscriber: no read timeout, so an idle subscription stays open."""
    url = _subscriber_url() if is_cluster() else redis_url()
    return redis.Redis.from_url(
        _checked(url),
        decode_responses=True,
        socket_timeout=None,
        socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
        protocol=2,
    )


def get_async_redis(*, subscriber: bool = False, attempt: int = 0) -> redis.asyncio.Redis:
    """An asyncio client bound to the running event loop (asyncio clients cannot cross loops). Never starts
    a server.

    ``subscriber=True`` gives a fresh client without a read timeout, for a pub/sub connection that may stay
    idle for minutes (on a cluster, to a node ``REDIS_CLUSTER_URL`` names: the ``attempt``-th in turn, so that
    reconnecting after a node died tries the next one).
    """
    if subscriber:
        return redis.asyncio.Redis.from_url(
            _checked(_subscriber_url(attempt)),
            decode_responses=True,
            socket_timeout=None,
            socket_connect_timeout=CONNECT_TIMEOUT_SECONDS,
            protocol=2,
        )
    loop = asyncio.get_running_loop()
    per_loop = _async_clients.setdefault(loop, {})
    url = settings.REDIS_CLUSTER_URL or settings.REDIS_URL
    client = per_loop.get(url)
    if client is None:
        if is_cluster():
            client = redis.asyncio.RedisCluster.from_url(
                cluster_urls(url)[0],
                startup_nodes=[
                    redis.asyncio.cluster.ClusterNode(node.hostname, node.port or 6379)
                    for node in map(urlsplit, cluster_urls(url)[1:])
                ],
                retry=redis.asyncio.retry.Retry(ExponentialBackoff(cap=1.0, base=0.05), CLUSTER_RETRIES),
                **_options(True),
            )
        else:
            client = redis.asyncio.Redis.from_url(
                _checked(url), health_check_interval=HEALTH_CHECK_SECONDS, **_options(True)
            )
        per_loop[url] = client
    return client


def primaries() -> list[redis.Redis]:
    """A plain client of every server holding social data: each primary of the cluster, or the one Redis. For
    commands that concern a whole server (FLUSHALL in tests, INFO for the dashboard)."""
    client = get_redis()
    if isinstance(client, RedisCluster):
        return [client.get_redis_connection(node) for node in client.get_primaries()]
    return [client]


def unreachable() -> dict[str, str]:
    """The site's Redis servers that do not answer a PING now, each with the error: ``redis`` (``REDIS_URL``:
    jobs, cache, and the social data without a cluster) and ``redis_cluster`` (the social data on a cluster).
    Empty when all answer. For the health probe: one round trip per server."""
    servers: dict[str, Any] = {"redis": get_job_redis}
    if is_cluster():
        servers["redis_cluster"] = get_redis
    down = {}
    for name, client in servers.items():
        try:
            client().ping()
        except UNAVAILABLE_ERRORS as error:
            down[name] = f"{type(error).__name__}: {error}"
    return down


def reset() -> None:
    """Forget the cached clients (tests that point the site at another server call this)."""
    with _lock:
        for client in _clients.values():
            client.close()
        _clients.clear()
    _async_clients.clear()
    _ensured_at.clear()


# Errors meaning "Redis is not there right now": pages answer 503 for these instead of a traceback.
UNAVAILABLE_ERRORS: tuple[type[Exception], ...] = (
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ClusterDownError,
    embedded_redis.EmbeddedRedisError,
)

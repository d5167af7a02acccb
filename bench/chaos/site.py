"""The site under chaos: ``manage.py serve`` as ``./bin/run`` starts it, in a var directory of its own (its own
embedded Redis, which ``serve`` starts and watches, and its own SQLite database), and the processes it runs,
found from ``/proc`` so they can be killed with SIGKILL one at a time.

On the cluster test run (``REDIS_CLUSTER_URL`` in the environment) the social data stays on that cluster and the
site's own embedded Redis holds the jobs and the cache, as in production; killing "Redis" kills that one.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from socialsite import embedded_redis, testing

WEB = "web process"
WORKER = "RQ worker"
REDIS = "Redis"


def environment(var_dir: Path, *, appendfsync: str) -> dict[str, str]:
    """The environment of the site's ``serve`` and of every command run beside it."""
    env = {
        **os.environ,
        "SOCIALSITE_VAR_DIR": str(var_dir),
        "SOCIALSITE_REDIS_APPENDFSYNC": appendfsync,
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_LOG_LEVEL": "WARNING",
        # Every request is load; none may be refused for its rate (the limits' counters are still written).
        "RATE_LIMITS_ENABLED": "0",
        "STREAMING_MAX_CONNECTIONS_PER_ADDRESS": "0",
        # A job whose worker was killed is back on the queue within about five heartbeats.
        "SOCIALSITE_WORKER_HEARTBEAT_SECONDS": "1",
    }
    for unset in ("REDIS_URL", "DATABASE_URL"):  # serve's own embedded Redis and database, in var_dir
        env.pop(unset, None)
    return env


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [int(child) for child in children.read().split()]
    except OSError:
        return []


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@dataclass
class Site:
    url: str
    var_dir: Path
    env: dict[str, str]
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def redis_dir(self) -> Path:
        return self.var_dir / "redis"

    @property
    def redis_url(self) -> str:
        return embedded_redis.socket_url(self.redis_dir)

    def pids(self, kind: str) -> set[int]:
        """The live processes of one kind: ``WEB``, ``WORKER`` (children of ``serve``) or ``REDIS`` (the daemon)."""
        if kind == REDIS:
            pid = embedded_redis.pid(self.redis_dir)
            return {pid} if pid is not None and embedded_redis.process_alive(pid) else set()
        marker = "rqworker" if kind == WORKER else "socialsite.http_server"
        return {pid for pid in _children(self.process.pid) if marker in _cmdline(pid)}

    def kill(self, kind: str) -> int:
        """SIGKILL one process of ``kind``; returns its pid."""
        victim = min(self.pids(kind))
        os.kill(victim, signal.SIGKILL)
        return victim

    def manage(self, *arguments: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """A ``manage.py`` command (or ``-m module`` when the first argument is ``-m``) in the site's environment."""
        command = [sys.executable, *arguments] if arguments[0] == "-m" else [sys.executable, "manage.py", *arguments]
        return subprocess.run(
            command, env=self.env, cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=timeout, check=True
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextlib.contextmanager
def serve(
    var_dir: Path,
    *,
    appendfsync: str,
    web_processes: int,
    workers: int,
    static_from: dict[str, str] | None = None,
    start_timeout: float = 60,
) -> Iterator[Site]:
    """Run ``manage.py serve`` with ``web_processes`` daphne processes and ``workers`` RQ workers on a free port;
    yields the ``Site`` once ``/healthz`` answers, stops it (SIGTERM, which stops its Redis last) at the end.
    ``static_from``: the environment of a site whose collected static files this one may share."""
    env = environment(var_dir, appendfsync=appendfsync)
    if static_from is not None:
        testing.share_static(env, static_from)
    else:
        testing.collect_static(env)
    port = testing.free_port()
    log_path = var_dir / "serve.log"
    command = [
        sys.executable,
        "manage.py",
        "serve",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--web-processes",
        str(web_processes),
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, env=env, cwd=settings.BASE_DIR, stdout=log, stderr=subprocess.STDOUT)
    site = Site(f"http://127.0.0.1:{port}", var_dir, env, process, log_path)
    try:
        testing.wait_until_served(site.url + "/healthz", process, start_timeout, log_path)
        yield site
    finally:
        testing.stop(process, timeout=30)
        if embedded_redis.is_running(site.redis_dir):  # serve was killed before it could stop it
            embedded_redis.stop(site.redis_dir)


def wait_for_replacement(site: Site, kind: str, victim: int, count: int, timeout: float) -> float | None:
    """Seconds until ``count`` processes of ``kind`` run again, ``victim`` not among them (Redis: answering
    too); None if that took longer than ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        pids = site.pids(kind)
        if victim not in pids and len(pids) >= count and (kind != REDIS or embedded_redis.is_running(site.redis_dir)):
            return time.monotonic() - started
        time.sleep(0.05)
    return None

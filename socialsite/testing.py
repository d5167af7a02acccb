"""Running the real site in a child process, for the tests and the benchmarks: daphne on a free port, or the
whole of ``manage.py serve`` (several daphne processes on one port) as ``./bin/run`` runs it.

Shared by the browser tests, the streaming API tests, the run-command test and ``bench``, so that each starts,
waits for and stops the server the same way.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from django.conf import settings

from socialsite.web_processes import ASGI_APPLICATION

# How long a test waits for a condition it checks (a page showing a post, an event arriving, a job finishing)
# before it fails. Generous: ``bin/test`` runs two suites side by side on two cores, so the machine is always
# busy, and a passing test waits only as long as its condition takes. ``SOCIALSITE_TEST_WAIT_SECONDS``
# changes it (a slower machine, or a quick failure while debugging).
WAIT_SECONDS = float(os.environ.get("SOCIALSITE_TEST_WAIT_SECONDS", "30"))


def wait_until(predicate: Callable[[], object], timeout: float | None = None, interval: float = 0.05) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` (``WAIT_SECONDS``) has passed; returns its last answer
    as a bool, for the test to assert with its own message."""
    deadline = time.monotonic() + (WAIT_SECONDS if timeout is None else timeout)
    while not predicate():
        if time.monotonic() > deadline:
            return bool(predicate())
        time.sleep(interval)
    return True


def database_url() -> str:
    """A ``DATABASE_URL`` naming the database this process uses now (the test database during a test), for a
    child process that must see the same rows: SQLite's file, or the PostgreSQL server of the cluster run."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{database['NAME']}"
    password = f":{quote(database['PASSWORD'], safe='')}" if database.get("PASSWORD") else ""
    # dj-database-url reads a percent-encoded host as a unix socket directory.
    host = quote(str(database.get("HOST") or ""), safe="")
    port = f":{database['PORT']}" if database.get("PORT") else ""
    return f"postgres://{quote(database['USER'], safe='')}{password}@{host}{port}/{quote(database['NAME'], safe='')}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop(process: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL after ``timeout``: daphne may take its whole application-close timeout to exit."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


_collected: set[str] = set()


def collect_static(env: dict[str, str]) -> None:
    """``manage.py collectstatic`` once per var directory (where ``env``'s server reads the manifest from)."""
    var_dir = env.get("SOCIALSITE_VAR_DIR") or str(settings.BASE_DIR / "var")
    if var_dir in _collected:
        return
    manage = str(settings.BASE_DIR / "manage.py")
    subprocess.run(
        [sys.executable, manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=settings.BASE_DIR
    )
    _collected.add(var_dir)


def share_static(env: dict[str, str], collected_env: dict[str, str]) -> None:
    """Let ``env``'s server use the static files collected for ``collected_env``'s (collected now if they are not;
    a link to them), so a test starting several servers collects them once."""
    source = Path(collected_env["SOCIALSITE_VAR_DIR"]) / "staticfiles"
    target = Path(env["SOCIALSITE_VAR_DIR"]) / "staticfiles"
    collect_static(collected_env)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(source, target_is_directory=True)
    _collected.add(env["SOCIALSITE_VAR_DIR"])


def start_daphne(env: dict[str, str], *, port: int, log: Any = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """Start daphne serving ``socialsite.asgi`` on 127.0.0.1:``port`` with ``env`` (static files collected
    already, ``collect_static``), its output to ``log``; returns at once (``wait_until_served`` waits for it).
    For a test that starts several servers side by side; ``daphne`` does the whole of it for one."""
    return subprocess.Popen(
        [sys.executable, "-m", "socialsite.http_server", "-b", "127.0.0.1", "-p", str(port), ASGI_APPLICATION],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


@contextlib.contextmanager
def daphne(
    env: dict[str, str],
    *,
    probe: str = "/",
    log_path: Path | None = None,
    start_timeout: float = 60,
    stop_timeout: float = 10,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Serve ``socialsite.asgi`` with daphne on a free port with ``env``; yields (base URL, process) once
    ``probe`` answers. The server's output goes to ``log_path`` (quoted when it fails to start). Static files
    are collected first, as ``manage.py serve`` does: with DEBUG off the pages need the manifest."""
    collect_static(env)
    port = free_port()
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(log_path.open("wb")) if log_path else subprocess.DEVNULL
        process = start_daphne(env, port=port, log=log)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + start_timeout
            while True:
                try:
                    with urllib.request.urlopen(url + probe, timeout=2):
                        break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        tail = log_path.read_text(errors="replace")[-3000:] if log_path else ""
                        raise RuntimeError(f"daphne did not start on {url}\n{tail}") from None
                    time.sleep(0.1)
            yield url, process
        finally:
            stop(process, stop_timeout)


def wait_until_served(url: str, process: subprocess.Popen[bytes], timeout: float, log_path: Path | None) -> None:
    """Returns once ``url`` answers; raises with the server's log tail if ``process`` exits or time runs out."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace")[-3000:] if log_path else ""
                raise RuntimeError(f"the server did not start on {url}\n{tail}") from None
            time.sleep(0.1)


@contextlib.contextmanager
def serve(
    env: dict[str, str],
    *,
    web_processes: int | None = None,
    probe: str = "/healthz",
    log_path: Path | None = None,
    start_timeout: float = 60,
    stop_timeout: float = 30,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``manage.py serve`` on a free port with ``env`` and no RQ worker: the web server exactly as ``./bin/run``
    starts it (``web_processes`` daphne processes, default one per core). Yields (base URL, the ``serve``
    process) once ``probe`` answers; stops it with SIGTERM, which stops its web processes."""
    collect_static(env)
    port = free_port()
    command = [sys.executable, str(settings.BASE_DIR / "manage.py"), "serve", "--port", str(port), "--workers", "0"]
    if web_processes is not None:
        command += ["--web-processes", str(web_processes)]
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(log_path.open("wb")) if log_path else subprocess.DEVNULL
        process = subprocess.Popen(command, env=env, cwd=settings.BASE_DIR, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_served(url + probe, process, start_timeout, log_path)
            yield url, process
        finally:
            stop(process, stop_timeout)

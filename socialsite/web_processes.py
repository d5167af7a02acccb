"""The web server of ``manage.py serve``: one listening socket, several daphne processes accepting on it.

One daphne process runs Python on one core, so a single process leaves the rest of the machine idle while pages
queue behind each other. ``serve`` therefore binds the port once, in the parent, and starts ``count`` daphne
processes (``os.cpu_count()`` unless ``--web-processes`` or ``SOCIALSITE_WEB_PROCESSES`` says otherwise), each
adopting the same listening socket with ``daphne --fd``; the kernel hands every new connection to one of them.

Why daphne for every process, pages included, rather than pages on another server and streams on daphne: the
streaming API and the live home are Channels applications that need daphne (or another ASGI server) anyway; one
server means one port, one set of ASGI middleware (trusted proxies, security headers), no routing proxy in front
and no second dependency to keep patched. Each process has its own Redis subscription for its streams
(``streaming.hub``); the per-identifier stream limit is counted in Redis, so it holds across processes.

The parent keeps the socket open for as long as it runs, so a process that dies is replaced on the same socket
without refusing a single connection: the others go on accepting meanwhile. Each process gets SIGTERM when the
parent dies, even by SIGKILL (``socialsite.orphans``), so no orphan keeps the port.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

from django.conf import settings

from socialsite import orphans

ASGI_APPLICATION = "socialsite.asgi:application"
# Connections the kernel queues for the processes to accept; the default of 50 would refuse a burst of
# browsers opening their page and its live stream at once.
LISTEN_BACKLOG = 1024
# More restarts than this within RESTART_WINDOW_SECONDS means the processes fail as they start (a bad setting, an
# import error): restarting them would only loop, so ``serve`` stops instead.
MAX_RESTARTS = 5
RESTART_WINDOW_SECONDS = 30.0


class WebProcessFailed(RuntimeError):
    """The web processes keep exiting as they start."""


def default_count() -> int:
    """How many web processes ``serve`` starts: ``settings.WEB_PROCESSES``, else one per core."""
    return settings.WEB_PROCESSES or os.cpu_count() or 1


def listen(host: str, port: int) -> socket.socket:
    """The listening TCP socket every web process accepts on, inheritable by the children."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    # A restart must not wait for the previous run's connections in TIME_WAIT to let the port go.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    sock.listen(LISTEN_BACKLOG)
    sock.set_inheritable(True)
    return sock


class WebProcesses:
    """``count`` daphne processes serving ``socialsite.asgi`` on the listening socket ``sock``."""

    def __init__(self, sock: socket.socket, count: int, *, env: dict[str, str] | None = None) -> None:
        if count < 1:
            raise ValueError("At least one web process is needed.")
        self.sock = sock
        self.count = count
        self.env = env
        self.processes: list[subprocess.Popen[bytes]] = []
        self.restarts: list[float] = []

    def command(self) -> list[str]:
        fd = self.sock.fileno()
        # No --proxy-headers: daphne would believe X-Forwarded-For from anyone. socialsite.proxies reads it
        # from DJANGO_TRUSTED_PROXIES only.
        return [sys.executable, "-m", "daphne", "--fd", str(fd), ASGI_APPLICATION]

    def _spawn(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            self.command(),
            pass_fds=(self.sock.fileno(),),
            env=self.env,
            # Its own session: Ctrl-C reaches ``serve`` only, which then stops the processes in order.
            start_new_session=True,
            preexec_fn=orphans.preexec_die_with_parent(),  # no threads run in ``serve`` yet
        )

    def start(self) -> None:
        self.processes = [self._spawn() for _ in range(self.count)]

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def replace_exited(self) -> list[int]:
        """Start a new process in place of each that exited; returns the exit codes of those replaced. Raises
        ``WebProcessFailed`` past ``MAX_RESTARTS`` restarts within ``RESTART_WINDOW_SECONDS``."""
        codes = []
        for index, process in enumerate(self.processes):
            if process.poll() is None:
                continue
            now = time.monotonic()
            self.restarts = [when for when in self.restarts if now - when < RESTART_WINDOW_SECONDS] + [now]
            if len(self.restarts) > MAX_RESTARTS:
                raise WebProcessFailed(
                    f"A web process exited with code {process.returncode}, the {len(self.restarts)}th exit in "
                    f"{RESTART_WINDOW_SECONDS:.0f} s: it fails as it starts."
                )
            codes.append(process.returncode)
            self.processes[index] = self._spawn()
        return codes

    def stop(self, timeout: float) -> None:
        """SIGTERM to every process, SIGKILL to those still running after ``timeout`` seconds."""
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

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
(``socialsite.supervision``) without refusing a single connection: the others go on accepting meanwhile. Each
process gets SIGTERM when the parent dies, even by SIGKILL (``socialsite.orphans``), so no orphan keeps the port.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys

from django.conf import settings

from socialsite import orphans

ASGI_APPLICATION = "socialsite.asgi:application"
# Connections the kernel queues for the processes to accept; the default of 50 would refuse a burst of
# browsers opening their page and its live stream at once.
LISTEN_BACKLOG = 1024


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


def command(sock: socket.socket) -> list[str]:
    """The command of one web process: daphne serving ``socialsite.asgi`` on the inherited socket ``sock``."""
    # No --proxy-headers: daphne would believe X-Forwarded-For from anyone. socialsite.proxies reads it from
    # DJANGO_TRUSTED_PROXIES only. daphne's own command line, with the site's answers to overlong request heads
    # (socialsite.http_server).
    return [sys.executable, "-m", "socialsite.http_server", "--fd", str(sock.fileno()), ASGI_APPLICATION]


def spawn(sock: socket.socket, *, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """Start one web process accepting on ``sock``; ``serve`` keeps ``count`` of them running
    (``socialsite.supervision``)."""
    return subprocess.Popen(
        command(sock),
        pass_fds=(sock.fileno(),),
        env=env,
        # Its own session: Ctrl-C reaches ``serve`` only, which then stops the processes in order.
        start_new_session=True,
        preexec_fn=orphans.preexec_die_with_parent(),  # ``serve`` runs no other thread
    )

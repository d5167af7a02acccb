"""``manage.py serve``: run the whole site in the foreground until Ctrl-C.

Starts the embedded Redis (when ``REDIS_URL`` is not set), RQ workers with the scheduler and the web server on
127.0.0.1:8000 (several daphne processes on one listening socket, one per core by default:
``socialsite.web_processes``); restarts any of them that dies, with a growing delay, and logs how it died
(``socialsite.supervision``); and on Ctrl-C or SIGTERM stops the web processes and the workers (which finish
their current job), then shuts Redis down cleanly. Its children die with it even if it is killed with SIGKILL
(``socialsite.orphans``); the embedded Redis, a daemon other processes may use too, does not.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core import checks
from django.core.management.base import BaseCommand, CommandError

from socialsite import orphans, supervision, web_processes
from socialsite.redis_client import embedded_persistence, redis_url

STOP_TIMEOUT_SECONDS = 20
# RQ worker processes. Each runs its jobs in its own process (timelines.worker), so a fan-out chain keeps
# every one of them busy (each job queues the next before writing).
DEFAULT_WORKERS = 2


class Command(BaseCommand):
    help = "Run socialsite: embedded Redis, daphne processes and RQ workers together; Ctrl-C stops them all."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--workers", type=int, default=DEFAULT_WORKERS, help=f"RQ worker processes (default {DEFAULT_WORKERS})"
        )
        parser.add_argument(
            "--web-processes",
            type=int,
            default=None,
            help="daphne processes sharing the port (default SOCIALSITE_WEB_PROCESSES, else one per core)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stopping = False
        url = redis_url()
        if settings.EMBEDDED_REDIS_DIR is not None:
            self.stdout.write(f"Embedded Redis: {url} (data in {settings.EMBEDDED_REDIS_DIR})")
        manage = str(settings.BASE_DIR / "manage.py")
        count = options["web_processes"] or web_processes.default_count()
        if count < 1:
            raise CommandError("--web-processes takes a number of processes, 1 or more.")
        try:
            sock = web_processes.listen(options["host"], options["port"])
        except OSError as error:
            raise CommandError(f"Cannot listen on {options['host']}:{options['port']}: {error}") from None
        worker_command = [sys.executable, manage, "rqworker", "--with-scheduler", "default"]

        def start_worker() -> subprocess.Popen[bytes]:
            # Its own session, as the web processes: Ctrl-C reaches ``serve`` only, which stops them in order.
            return subprocess.Popen(
                worker_command, start_new_session=True, preexec_fn=orphans.preexec_die_with_parent()
            )

        services: list[supervision.Service] = []
        if settings.EMBEDDED_REDIS_DIR is not None:
            services.append(supervision.EmbeddedRedis(settings.EMBEDDED_REDIS_DIR, embedded_persistence()))
        services += [supervision.ChildProcess("RQ worker", start_worker) for _ in range(options["workers"])]
        services += [supervision.ChildProcess("web process", lambda: web_processes.spawn(sock)) for _ in range(count)]
        supervisor = supervision.Supervisor(services, log=self.stderr.write)
        for line in deploy_warnings():
            self.stderr.write(self.style.WARNING(line))
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, self._request_stop)
        try:
            supervisor.start()
            self.stdout.write(
                self.style.SUCCESS(
                    f"socialsite is running on http://{options['host']}:{options['port']}/ "
                    f"({count} web processes; Ctrl-C to stop)"
                )
            )
            while not self.stopping:
                supervisor.check()
                time.sleep(supervision.CHECK_INTERVAL_SECONDS)
        finally:
            self.stdout.write("Stopping socialsite...")
            supervisor.stop(STOP_TIMEOUT_SECONDS)
            sock.close()
            self.stdout.write("Stopped.")

    def _request_stop(self, signum: int, frame: Any) -> None:
        self.stopping = True


def deploy_warnings() -> list[str]:
    """What ``serve`` prints on every start: each error ``check --deploy`` would stop on (such as the demo
    accounts' published password, ``accounts.E001``). The site runs anyway, but nobody starting it can miss that
    it is not ready for the internet."""
    messages = checks.run_checks(include_deployment_checks=True, tags=[checks.Tags.security])
    return [
        f"WARNING ({message.id}): {message.msg} {message.hint or ''}".strip()
        for message in messages
        if message.is_serious()
    ]

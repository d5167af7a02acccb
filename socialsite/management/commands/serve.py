"""``manage.py serve``: run the whole site in the foreground until Ctrl-C.

Starts the embedded Redis (when ``REDIS_URL`` is not set), the web server on 127.0.0.1:8000 (several daphne
processes on one listening socket, one per core by default: ``socialsite.web_processes``) and RQ workers with the
scheduler, replaces a web process or a worker that dies, and on Ctrl-C or SIGTERM stops the web processes, lets
the workers finish their current job, then shuts Redis down cleanly.
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

from socialsite import embedded_redis, web_processes
from socialsite.redis_client import redis_url

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
        web = web_processes.WebProcesses(sock, count)
        worker_command = [sys.executable, manage, "rqworker", "--with-scheduler", "default"]
        web.start()
        workers = [subprocess.Popen(worker_command, start_new_session=True) for _ in range(options["workers"])]
        self.stdout.write(
            self.style.SUCCESS(
                f"socialsite is running on http://{options['host']}:{options['port']}/ "
                f"({count} web processes; Ctrl-C to stop)"
            )
        )
        for line in deploy_warnings():
            self.stderr.write(self.style.WARNING(line))
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, self._request_stop)
        failure = None
        try:
            while not self.stopping:
                try:
                    replaced = web.replace_exited()
                except web_processes.WebProcessFailed as error:
                    failure = str(error)
                    break
                for code in replaced:
                    self.stderr.write(f"A web process exited with code {code}; restarting it.")
                for index, worker in enumerate(workers):
                    if worker.poll() is not None:
                        self.stderr.write(f"An RQ worker exited with code {worker.returncode}; restarting it.")
                        workers[index] = subprocess.Popen(worker_command, start_new_session=True)
                time.sleep(0.5)
        finally:
            self.stdout.write("Stopping socialsite...")
            web.stop(STOP_TIMEOUT_SECONDS)
            sock.close()
            _stop(workers)
            if settings.EMBEDDED_REDIS_DIR is not None:
                embedded_redis.stop(settings.EMBEDDED_REDIS_DIR)
            self.stdout.write("Stopped.")
        if failure:
            raise CommandError(failure)

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


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
    for process in processes:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

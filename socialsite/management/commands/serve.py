"""``manage.py serve``: run the whole site in the foreground until Ctrl-C.

Starts the embedded Redis (when ``REDIS_URL`` is not set), daphne serving the ASGI app on 127.0.0.1:8000
and RQ workers with the scheduler, restarts a worker that dies, and on Ctrl-C stops the web server, lets the
workers finish their current job, then shuts Redis down cleanly.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from socialsite import embedded_redis
from socialsite.redis_client import redis_url

STOP_TIMEOUT_SECONDS = 20


class Command(BaseCommand):
    help = "Run socialsite: embedded Redis, daphne and RQ workers together; Ctrl-C stops them all."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=2, help="RQ worker processes (default 2)")

    def handle(self, *args: Any, **options: Any) -> None:
        self.stopping = False
        url = redis_url()
        if settings.EMBEDDED_REDIS_DIR is not None:
            self.stdout.write(f"Embedded Redis: {url} (data in {settings.EMBEDDED_REDIS_DIR})")
        manage = str(settings.BASE_DIR / "manage.py")
        web_command = [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            options["host"],
            "-p",
            str(options["port"]),
            # No --proxy-headers: daphne would believe X-Forwarded-For from anyone. socialsite.proxies reads it
            # from DJANGO_TRUSTED_PROXIES only.
            "socialsite.asgi:application",
        ]
        worker_command = [sys.executable, manage, "rqworker", "--with-scheduler", "default"]
        web = subprocess.Popen(web_command, start_new_session=True)
        workers = [subprocess.Popen(worker_command, start_new_session=True) for _ in range(options["workers"])]
        self.stdout.write(
            self.style.SUCCESS(f"socialsite is running on http://{options['host']}:{options['port']}/ (Ctrl-C to stop)")
        )
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, self._request_stop)
        failure = None
        try:
            while not self.stopping:
                if web.poll() is not None:
                    failure = f"The web server exited with code {web.returncode}."
                    break
                for index, worker in enumerate(workers):
                    if worker.poll() is not None:
                        self.stderr.write(f"An RQ worker exited with code {worker.returncode}; restarting it.")
                        workers[index] = subprocess.Popen(worker_command, start_new_session=True)
                time.sleep(0.5)
        finally:
            self.stdout.write("Stopping socialsite...")
            _stop([web])
            _stop(workers)
            if settings.EMBEDDED_REDIS_DIR is not None:
                embedded_redis.stop(settings.EMBEDDED_REDIS_DIR)
            self.stdout.write("Stopped.")
        if failure:
            raise CommandError(failure)

    def _request_stop(self, signum: int, frame: Any) -> None:
        self.stopping = True


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

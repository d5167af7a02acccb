"""``manage.py embedded_redis start|stop|status``: manage the embedded Redis by hand."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from socialsite import embedded_redis
from socialsite.redis_client import embedded_persistence


class Command(BaseCommand):
    help = "Start, stop or show the embedded Redis server (used when REDIS_URL is not set)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("action", choices=["start", "stop", "status"])

    def handle(self, *args: Any, **options: Any) -> None:
        directory = settings.EMBEDDED_REDIS_DIR
        if directory is None:
            raise CommandError("REDIS_URL is set, so the site does not use the embedded Redis.")
        action = options["action"]
        if action == "start":
            url = embedded_redis.ensure_running(directory, embedded_persistence())
            self.stdout.write(f"Embedded Redis running at {url} (data in {directory}).")
        elif action == "stop":
            stopped = embedded_redis.stop(directory)
            self.stdout.write("Embedded Redis stopped." if stopped else "Embedded Redis was not running.")
        else:
            running = embedded_redis.is_running(directory)
            state = f"running at {embedded_redis.socket_url(directory)}" if running else "not running"
            self.stdout.write(f"Embedded Redis {state} (data in {directory}).")

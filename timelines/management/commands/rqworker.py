"""``manage.py rqworker``: django-rq's worker, started after the embedded Redis is up.

Overrides django-rq's command of the same name (this app comes first in INSTALLED_APPS) to make sure the
site's Redis runs before the worker connects, and to name JSON as the serializer (django-rq's default is pickle;
``timelines.worker.Worker`` reads JSON whatever is passed), and, for a worker that runs the scheduler (as
``manage.py serve`` starts them), to make sure the periodic idle sweep is scheduled (``services.idle``; every sweep
schedules the next). Everything else, options included, is django-rq's.
"""

from __future__ import annotations

from typing import Any

from django_rq.management.commands.rqworker import Command as DjangoRQWorkerCommand

from socialsite.redis_client import redis_url
from timelines.queue import SERIALIZER
from timelines.services import idle


class Command(DjangoRQWorkerCommand):
    help = "Run an RQ worker for socialsite's deferred work (fan-out). Use --burst to drain the queue and exit."

    def add_arguments(self, parser: Any) -> None:
        super().add_arguments(parser)
        parser.set_defaults(serializer=f"{SERIALIZER.__module__}.{SERIALIZER.__qualname__}")

    def handle(self, *args: Any, **options: Any) -> None:
        redis_url()
        if options.get("with_scheduler"):
            idle.ensure_sweep_scheduled()
        super().handle(*args, **options)

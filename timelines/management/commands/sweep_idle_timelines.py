"""``manage.py sweep_idle_timelines [--apply]``: drop the home and list timelines of people not seen for
``SOCIALSITE_IDLE_DAYS`` (``timelines.services.idle``), as the periodic sweep does every hour.

A dry run by default: it says how many people the sweep would look at and changes nothing. ``--apply`` runs the
whole sweep in this process. Their timelines are rebuilt when they come back. ``--enroll`` first gives accounts
made before visits were recorded their last visit (their sign-up), so the sweep can find them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from timelines.services import idle


class Command(BaseCommand):
    help = "Drop the timelines of people not seen for SOCIALSITE_IDLE_DAYS days (dry run unless --apply)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--apply", action="store_true", help="drop them (default: only count them)")
        parser.add_argument(
            "--enroll", action="store_true", help="first enter accounts without a last visit at their sign-up"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["enroll"]:
            self.stdout.write(f"Entered {idle.enroll_all()} accounts without a last visit at their sign-up.")
        if not options["apply"]:
            found = idle.count_idle()
            self.stdout.write(
                f"{found} people not seen for {settings.IDLE_DAYS} days still have their home; "
                "--apply drops their timelines."
            )
            return
        dropped = idle.sweep_all()
        self.stdout.write(self.style.SUCCESS(f"Dropped {dropped} idle homes (and their owners' list timelines)."))

"""``manage.py audit_federation [--fix]``: check each local account's index of remote follower inboxes
(``ap:inboxes:{uid}``, read by every post's fan-out) against its followers, and, when told, rebuild it
(``federation.services.inbox_index``). A dry run by default."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from federation.services import inbox_index


class Command(BaseCommand):
    help = "Check the remote follower inbox indexes in Redis; --fix rebuilds them."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--fix", action="store_true", help="repair what the checks find (default: dry run)")

    def handle(self, *args: Any, **options: Any) -> None:
        report = inbox_index.audit(fix=options["fix"])
        self.stdout.write(
            f"accounts with remote followers: {report.accounts}; remote followers that left: "
            f"{report.stale_followers}; inbox indexes wrong: {report.wrong_indexes}"
        )
        for example in report.examples[:20]:
            self.stdout.write(f"  {example}")
        if not report.stale_followers and not report.wrong_indexes:
            self.stdout.write(self.style.SUCCESS("No problems found."))
        elif options["fix"]:
            self.stdout.write(self.style.SUCCESS("Repaired."))

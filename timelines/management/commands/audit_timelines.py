"""``manage.py audit_timelines [--fix]``: check the social graph in Redis and, when told, repair it.

Checks counters against the sizes of the sets they count, follower/following and list-membership symmetry,
list ownership, leftovers of deleted lists, timeline sizes, ids of deleted statuses, direct messages and the
versions of edited statuses (see ``timelines.audit``), and pictures nothing can show any more
(``timelines.audit_media``, on the SQL side). A dry run by default: it prints what it found in a summary table
and changes nothing;
``--fix`` repairs each finding with the same single-slot steps the site uses.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from timelines import audit, audit_media


class Command(BaseCommand):
    help = "Check counters, follow and list symmetry, timeline sizes and deleted ids in Redis; --fix repairs."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--fix", action="store_true", help="repair what the checks find (default: dry run)")

    def handle(self, *args: Any, **options: Any) -> None:
        fix = options["fix"]
        verbosity = options["verbosity"]
        report = audit.audit(fix=fix)
        pictures = audit.Finding("media leftovers")
        audit_media.media_leftovers(pictures, fix=fix)
        report.findings.append(pictures)
        self.stdout.write(self._table(report))
        if verbosity >= 2:
            for finding in report.findings:
                for example in finding.examples:
                    self.stdout.write(f"  {finding.name}: {example}")
        if not report.problems:
            self.stdout.write(self.style.SUCCESS("No problems found."))
        elif fix:
            fixed = sum(finding.fixed for finding in report.findings)
            self.stdout.write(self.style.SUCCESS(f"Repaired {fixed} of {report.problems} problems."))
        else:
            self.stdout.write(
                self.style.WARNING(
                    f"Found {report.problems} problems. Dry run: nothing was changed; "
                    "run again with --fix to repair them (-v 2 shows examples)."
                )
            )

    @staticmethod
    def _table(report: audit.Report) -> str:
        header = ("check", "checked", "problems", "fixed")
        rows = [
            (finding.name, str(finding.checked), str(finding.problems), str(finding.fixed) if report.fix else "-")
            for finding in report.findings
        ]
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

        def line(row: tuple[str, ...]) -> str:
            return "  ".join(
                cell.ljust(width) if i == 0 else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(row, widths, strict=True))
            )

        rule = "  ".join("-" * width for width in widths)
        return "\n".join([line(header), rule, *(line(row) for row in rows)])

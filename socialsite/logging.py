"""Logging filters for the site's console."""

from __future__ import annotations

import logging


class QuietMaintenance(logging.Filter):
    """Drops RQ's routine maintenance lines: socialsite's workers run maintenance every few seconds
    (``timelines.worker``), which would otherwise fill the console of ``manage.py serve``."""

    ROUTINE = ("cleaning registries", "cleaning group registries")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("rq.") and record.levelno <= logging.INFO:
            message = record.getMessage()
            return not any(routine in message for routine in self.ROUTINE)
        return True

"""Formatting helpers for timestamps stored as Unix seconds in Redis."""

from __future__ import annotations

from datetime import UTC, datetime

from django import template

register = template.Library()


@register.filter
def from_timestamp(value: float | str | None) -> datetime | None:
    """A Unix timestamp (float seconds) as an aware datetime, for ``timesince`` and ``date``."""
    if value in (None, ""):
        return None
    try:
        return datetime.fromtimestamp(float(value), tz=UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return None

"""Formatting helpers for timestamps stored as Unix seconds in Redis, and the words for a post's visibility.

``relative_time`` follows the same rules as ``static/js/site.js``, which refreshes the text of every
``<time data-relative>`` once a minute so an open page does not go stale.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone

from timelines import visibility

register = template.Library()

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR
# Younger than this reads "just now": a post that appears live should not say "0 min ago".
JUST_NOW_SECONDS = 45


@register.filter
def from_timestamp(value: float | str | None) -> datetime | None:
    """A Unix timestamp (float seconds) as an aware datetime, for ``timesince`` and ``date``."""
    if value in (None, ""):
        return None
    try:
        return datetime.fromtimestamp(float(value), tz=UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return None


def format_relative(posted: float, now: float) -> str:
    """Twitter-style age of a post: "just now", "3 min ago", "5 h ago", "2 d ago", then "4 Mar" or
    "4 Mar 2024" (in the site's time zone)."""
    age = now - posted
    if age < JUST_NOW_SECONDS:
        return "just now"
    if age < HOUR:
        return f"{max(1, int(age // MINUTE))} min ago"
    if age < DAY:
        return f"{int(age // HOUR)} h ago"
    if age < 7 * DAY:
        return f"{int(age // DAY)} d ago"
    moment = timezone.localtime(datetime.fromtimestamp(posted, tz=UTC))
    today = timezone.localtime(datetime.fromtimestamp(now, tz=UTC))
    if moment.year == today.year:
        return f"{moment.day} {moment:%b}"
    return f"{moment.day} {moment:%b} {moment.year}"


@register.filter
def iso_time(value: float | str | None) -> str:
    """A Unix timestamp as ISO 8601 in UTC, for ``<time datetime>``. (A page shows 30 of these: the
    standard library's formatting is several times faster than the ``date`` filter's.)"""
    moment = from_timestamp(value)
    return moment.isoformat(timespec="seconds") if moment else ""


@register.filter
def exact_time(value: float | str | None) -> str:
    """A Unix timestamp as "4 Mar 2026, 14:05:09 UTC" in the site's time zone, for the hover title."""
    moment = from_timestamp(value)
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    return f"{local.day} {local:%b %Y, %H:%M:%S} {local.tzname()}"


@lru_cache(maxsize=1)
def _profile_url_pattern() -> str:
    return reverse("timelines:profile", args=["LOGIN"])


@register.filter
def profile_url(login: str) -> str:
    """The profile URL of ``login``, reversed once and reused: reversing per status costs more than the
    rest of a status's rendering."""
    return _profile_url_pattern().replace("LOGIN", str(login))


@register.filter
def relative_time(value: float | str | None) -> str:
    """The age of a Unix timestamp as short text (see ``format_relative``); empty for bad input."""
    try:
        return format_relative(float(value), time.time())  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError, OSError):
        return ""


@register.filter
def status_url(login: str, status_id: int | str) -> str:
    """The page of one post, ``/@login/<id>``."""
    return f"{_profile_url_pattern().replace('LOGIN', str(login))}/{int(status_id)}"


@lru_cache(maxsize=16)
def _action_url_pattern(action: str) -> str:
    return reverse(f"timelines:{action}", args=[987654321])


@register.filter
def action_url(status_id: int | str, action: str) -> str:
    """The URL of an action on a post (``like``, ``unlike``, ``repost``, ``unrepost``, ``delete``), reversed
    once per action and reused."""
    return _action_url_pattern(action).replace("987654321", str(int(status_id)))


@register.filter
def visibility_label(level: str) -> str:
    """The words for a post's visibility ("Followers only"), as the post box's menu names it."""
    return visibility.LABELS.get(level, "")


@register.filter
def repostable(level: str) -> bool:
    """Whether a post of this visibility can be reposted (public and unlisted only)."""
    return level in visibility.REPOSTABLE


@register.filter
def summary(status: Any) -> str:
    """A post's text for a one-line mention of it (notifications, conversations, titles), or for a post of
    images alone what they are: "2 images: A red flag" (the first alt text), so such a post is never blank."""
    message = status.message if hasattr(status, "message") else str(status.get("message", ""))
    media = getattr(status, "media", ())
    if message or not media:
        return message
    count = f"{len(media)} image{'s' if len(media) > 1 else ''}"
    first = next((item.description for item in media if item.description), "")
    return f"{count}: {first}" if first else count

"""The Report link's URL, reversed once and reused: a page shows thirty posts, each with its Report link."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.urls import reverse
from django.utils.http import urlencode

register = template.Library()


@lru_cache(maxsize=1)
def _report_url_pattern() -> str:
    return reverse("reports:form", args=["LOGIN"])


@register.filter
def report_url(login: str, status_id: int | str | None = None) -> str:
    """The report form for ``login``, ``/@login/report``, with ``?status=<id>`` when a post is reported."""
    url = _report_url_pattern().replace("LOGIN", str(login))
    return f"{url}?{urlencode({'status': int(status_id)})}" if status_id else url

"""Per-process caches of rendered template fragments (``timelines/templatetags/status_fragments.py`` for
posts, ``socialsite/templatetags/site_header.py`` for the page header), so a page renders a few cached
strings instead of the same template nodes on every request.

A fragment's cache key is everything its HTML depends on. The one part that is each request's own, the CSRF
token in its forms, is rendered as ``PLACEHOLDER`` and put in on the way out (``with_token``). The placeholder
is random, made once per process and never shown (every copy is replaced), so no text a person writes can
carry it.

Each cache holds at most ``settings.TIMELINES_FRAGMENT_CACHE_SIZE`` fragments (the oldest inserted go first);
0 renders every fragment afresh. Fragments are immutable strings, so threads may share them.
"""

from __future__ import annotations

import secrets
from collections.abc import Hashable

from django import template
from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

PLACEHOLDER = f"csrf-{secrets.token_hex(16)}"

# Where a template render keeps the request's CSRF token once resolved and escaped for its fragments.
_TOKEN = "socialsite.fragments.csrf_token"


class FragmentCache:
    """Rendered fragments by key, bounded by ``settings.TIMELINES_FRAGMENT_CACHE_SIZE``."""

    def __init__(self) -> None:
        self._fragments: dict[Hashable, str] = {}

    def get(self, key: Hashable) -> str | None:
        return self._fragments.get(key)

    def keep(self, key: Hashable, html: str) -> None:
        limit = settings.TIMELINES_FRAGMENT_CACHE_SIZE
        if limit <= 0:
            return
        while len(self._fragments) >= limit:
            try:
                del self._fragments[next(iter(self._fragments))]
            except (StopIteration, KeyError, RuntimeError):  # emptied or changed by another thread meanwhile
                break
        self._fragments[key] = html

    def clear(self) -> None:
        self._fragments.clear()

    def __len__(self) -> int:
        return len(self._fragments)


def escaped_token(context: template.Context) -> str:
    """The request's CSRF token, escaped, from a template context: resolved once per template render (it is a
    lazy object), not once per fragment."""
    token = context.render_context.get(_TOKEN)
    if token is None:
        token = escape(str(context.get("csrf_token") or ""))
        context.render_context[_TOKEN] = token
    return token


def with_token(html: str, token: str) -> SafeString:
    """A cached fragment with the request's escaped CSRF token in place of every ``PLACEHOLDER``."""
    return mark_safe(html.replace(PLACEHOLDER, token))  # the template escaped the rest

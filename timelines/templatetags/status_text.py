"""Rendering a post's (or a bio's) text: links, mentions and tags as links, everything else escaped.

``{{ status.message|linkify:status.mention_logins }}``: ``@login`` becomes a link to ``/@login`` only for the
logins given (the users the post really mentions, resolved when it was written), ``#tag`` a link to
``/tags/<tag lowercased>``, ``http(s)://`` URLs links with ``rel="nofollow noopener noreferrer ugc"``; line
breaks become ``<br>``. The text is cut by ``timelines.text.segments``, the same parser that decided what the
post mentions and tags.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from timelines import text

register = template.Library()

LINK_REL = "nofollow noopener noreferrer ugc"


@lru_cache(maxsize=1)
def _tag_url_pattern() -> str:
    return reverse("timelines:tag", args=["TAG"])


@lru_cache(maxsize=1)
def _profile_url_pattern() -> str:
    return reverse("timelines:profile", args=["LOGIN"])


def _text(value: str) -> str:
    return escape(value).replace("\n", "<br>")


def render(message: str, known_logins: Iterable[str] = ()) -> str:
    """The HTML of ``message`` (see the module docstring)."""
    known = {login.lower() for login in known_logins}
    html: list[str] = []
    for segment in text.segments(message):
        if segment.kind == "url":
            url = escape(segment.value)
            html.append(f'<a href="{url}" rel="{LINK_REL}">{url}</a>')
        elif segment.kind == "mention" and segment.value.lower() in known:
            href = _profile_url_pattern().replace("LOGIN", escape(segment.value.lower()))
            html.append(f'<a class="mention" href="{href}">@{escape(segment.value)}</a>')
        elif segment.kind == "tag":
            href = _tag_url_pattern().replace("TAG", escape(text.normalize_tag(segment.value)))
            html.append(f'<a class="tag" href="{href}">#{escape(segment.value)}</a>')
        elif segment.kind == "mention":
            html.append(_text("@" + segment.value))
        else:
            html.append(_text(segment.value))
    return "".join(html)


@register.filter
def linkify(message: str, known_logins: Iterable[str] | None = None) -> SafeString:
    # Safe: render() escapes every piece of text it emits.
    return mark_safe(render(str(message or ""), known_logins or ()))

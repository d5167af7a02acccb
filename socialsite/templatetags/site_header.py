"""``{% site_header %}``: the header every page shows (``templates/_site_header.html``), from a per-process cache
of rendered fragments (``socialsite.fragments``).

The header depends only on who looks (their login, or nobody), their three counts (unread notifications, unread
conversations, pending follow requests, read on every page by ``timelines.context_processors``), which menu page is
open, and whether the page shows the search box; that is the cache key. A page renders it once per process and key
instead of a dozen URL reversals and conditions per request. The CSRF token of its Log out form is put in on the way
out, and only for a signed-in viewer: a visitor's page costs no token, nor its cookie.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from socialsite import fragments

register = template.Library()

TEMPLATE = "_site_header.html"
# The pages the menu marks as the current one (aria-current); any other path renders the same header.
MENU_PAGES = frozenset({"/", "/notifications", "/bookmarks", "/settings/profile"})

_headers = fragments.FragmentCache()


@register.simple_tag(takes_context=True)
def site_header(context: template.Context, search: bool = True) -> SafeString:
    user = context.get("user")
    username = user.username if user is not None and user.is_authenticated else ""
    counts: Any = context.get("header_counts") if username else None
    unread = counts.unread_notifications if counts else 0
    pending = counts.follow_requests if counts else 0
    conversations = counts.unread_conversations if counts else 0
    path = context.get("current_path") or ""
    current = path if path in MENU_PAGES else ""
    key = (username, unread, conversations, pending, current, bool(search))
    html = _headers.get(key)
    if html is None:
        html = render_to_string(
            TEMPLATE,
            {
                "username": username,
                "unread_notifications": unread,
                "unread_conversations": conversations,
                "pending": pending,
                "current_path": current,
                "search": bool(search),
                "csrf_token": fragments.PLACEHOLDER,
            },
        )
        _headers.keep(key, html)
    if not username:
        return mark_safe(html)  # a visitor's header has no form
    return fragments.with_token(html, fragments.escaped_token(context))

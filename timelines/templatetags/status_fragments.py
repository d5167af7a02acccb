"""``{% status_html status %}``: one post as ``timelines/_status.html`` renders it, from a per-process cache of
rendered fragments (``socialsite.fragments``), so a page of 30 posts renders 30 cached strings instead of 30
template includes.

What a fragment shows depends on the post (immutable but for its counters and its edits; its id, posted time
and number of edits name its version),
who looks (nobody, its author, or someone else; whether they liked or reposted it), the page it is on (forms
carry it as ``next``) and the time (its age, "5 min"); all of that is the cache key. The CSRF token in its
forms is put in on the way out.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString

from socialsite import fragments
from socialsite.fragments import PLACEHOLDER
from timelines.templatetags.timeline_format import relative_time

register = template.Library()

TEMPLATE = "timelines/_status.html"

_fragments = fragments.FragmentCache()


def _key(entry: Any, viewer_uid: int | None, current_path: str, fresh: bool, focused: bool) -> tuple[Any, ...]:
    status = entry.status  # read directly: a page computes 30 keys, and the entry's delegation costs a call each
    reposted_by = entry.reposted_by
    role = 0 if not viewer_uid else (1 if viewer_uid == status.uid else 2)
    posted = status.posted
    return (
        entry.entry_id,
        status.id,
        # A flushed or restored Redis hands out the same ids again, never with the same posted time.
        posted,
        status.edits,  # the version: an edit changes the text, and "Edited"
        status.reply_count,
        status.repost_count,
        status.like_count,
        entry.liked,
        entry.reposted,
        reposted_by.id if reposted_by else None,
        role,
        current_path,
        fresh,
        focused,
        status.extra.get("in_reply_to_deleted"),
        relative_time(posted),
        relative_time(status.edited_at) if status.edited_at is not None else None,
    )


def _render(
    status: Any, *, viewer_uid: int | None, current_path: str, escaped_token: str, fresh: bool, focused: bool
) -> SafeString:
    key = _key(status, viewer_uid, current_path, fresh, focused)
    html = _fragments.get(key)
    if html is None:
        context = {
            "status": status,
            "viewer_uid": viewer_uid,
            "current_path": current_path,
            "fresh": fresh,
            "focused": focused,
            "csrf_token": PLACEHOLDER,
        }
        html = render_to_string(TEMPLATE, context)
        _fragments.keep(key, html)
    return fragments.with_token(html, escaped_token)


@register.simple_tag(takes_context=True)
def status_html(context: template.Context, status: Any, fresh: bool = False, focused: bool = False) -> SafeString:
    return _render(
        status,
        viewer_uid=context.get("viewer_uid"),
        current_path=context.get("current_path") or "",
        escaped_token=fragments.escaped_token(context),
        fresh=fresh,
        focused=focused,
    )


@register.simple_tag(takes_context=True)
def thread_reply(context: template.Context, item: Any, max_depth: int) -> SafeString:
    """One reply of a post page's tree (a ``selectors.conversations.ThreadItem``): its ``<li>``, indented to at
    most ``max_depth``, around the post, or the notice of a deleted one. One tag where the template took a dozen
    nodes per reply, and the depth written as digits rather than through number localization."""
    if item.entry is None:
        inner = format_html('<p class="status gone" id="status-{}">This post was deleted.</p>', item.id)
    else:
        inner = status_html(context, item.entry)
    return format_html(
        '<li class="reply depth-{}" data-depth="{}">{}</li>', min(item.depth, max_depth), item.depth, inner
    )

"""The picture limits a page tells the browser, so the post box can refuse a file too large before sending it."""

from __future__ import annotations

from django import template

from media import limits

register = template.Library()


@register.simple_tag
def upload_max_bytes() -> int:
    return limits.max_upload_bytes()


@register.simple_tag
def upload_too_large_message() -> str:
    return limits.too_large_message()

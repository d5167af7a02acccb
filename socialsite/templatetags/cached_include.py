"""``{% cached_include "template.html" name=value ... %}``: a template rendered with exactly the values named,
from a per-process cache of rendered fragments (``socialsite.fragments``) keyed by the template and those
values. For parts of a page that depend on a few values shared by many requests (the trending tags, the empty
post box). The values must be all the template reads; lists are keyed by their items. A ``{% csrf_token %}``
in the template gets the request's token on the way out.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from socialsite import fragments

register = template.Library()

_included = fragments.FragmentCache()


def _hashable(value: Any) -> Hashable:
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(item) for item in value)
    return value


@register.simple_tag(takes_context=True)
def cached_include(context: template.Context, template_name: str, **values: Any) -> SafeString:
    key = (template_name, *sorted((name, _hashable(value)) for name, value in values.items()))
    html = _included.get(key)
    if html is None:
        html = render_to_string(template_name, {**values, "csrf_token": fragments.PLACEHOLDER})
        _included.keep(key, html)
    if fragments.PLACEHOLDER not in html:
        return mark_safe(html)  # the template escaped it
    return fragments.with_token(html, fragments.escaped_token(context))

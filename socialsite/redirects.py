"""Where a form sends the person back to: the ``next`` a page passed along, checked here and nowhere else.

``next`` comes from the request, so it is anyone's text. It is followed only when it is a path on this site
(``/@bob``, ``/search?q=redis``): a scheme or a host (``https://evil.example``, ``//evil.example``,
``/\\evil.example``) or a plain word (``x``) sends the person to the view's own fallback instead. The answer is
always an ``HttpResponseRedirect`` to a URL, never ``django.shortcuts.redirect``, which would take a plain word
for the name of a URL pattern and raise ``NoReverseMatch`` (a 500 after the action was already done).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme


def local_path(target: object, *, request: HttpRequest) -> str | None:
    """``target`` when it is a path on this site, else None."""
    if not isinstance(target, str) or not target.startswith("/"):
        return None
    # No allowed host: only a URL without scheme and host passes ("//evil.example" names a host; Django also
    # refuses "/\\evil.example", which browsers read as "//evil.example", and leading control characters).
    if not url_has_allowed_host_and_scheme(target, allowed_hosts=set(), require_https=request.is_secure()):
        return None
    return target


def next_url(request: HttpRequest, fallback: str) -> str:
    """Where to go after a form: its ``next`` field (POST, then the query string) when it is a path on this site,
    else ``fallback`` (a URL the view built, such as ``reverse(...)``)."""
    target = local_path(request.POST.get("next") or request.GET.get("next"), request=request)
    return fallback if target is None else target


def redirect_next(request: HttpRequest, fallback: str) -> HttpResponseRedirect:
    """A 302 to ``next_url(request, fallback)``."""
    return HttpResponseRedirect(next_url(request, fallback))

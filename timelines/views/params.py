"""What every page view shares: strict parsing of query parameters, 404s for unknown users, lists and
statuses, the viewer's uid, and the htmx helpers (``next`` after a form is ``socialsite.redirects``').

Query integers are parsed by one function (``validation.parse_int``, shared with the streams), bounded in length
and range, so ``?max_id=²`` (a digit to ``str.isdigit`` that ``int`` refuses), ``?max_id=1%0A`` or ``?page=``
with 5,000 digits is a 400 with a readable page, never a 500. ``BadRequest`` is what Django turns into the
site's 400 page.
"""

from __future__ import annotations

from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django_htmx.http import trigger_client_event

from timelines import exceptions, limits, selectors, validation
from timelines.records import User, UserList


def parse_int(raw: str | None, name: str, *, minimum: int = 1, maximum: int = limits.MAX_ID - 1) -> int | None:
    """``raw`` as an integer in [minimum, maximum], or None when empty; anything else raises ``BadRequest``."""
    if raw is None or raw == "":
        return None
    try:
        return validation.parse_int(raw, minimum=minimum, maximum=maximum)
    except ValueError:
        raise BadRequest(f"{name} must be a whole number from {minimum} to {maximum}.") from None


def query_int(request: HttpRequest, name: str, *, default: int | None = None) -> int | None:
    """A positive integer query parameter, or ``default`` when absent; anything else is a 400."""
    value = parse_int(request.GET.get(name), name)
    return default if value is None else value


def query_float(request: HttpRequest, name: str) -> float | None:
    """A positive finite number query parameter (a time cursor such as ``?before=1763800100.25``), or None when
    absent; anything else is a 400."""
    raw = request.GET.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = float(raw) if len(raw) <= 32 and raw.isascii() else -1.0
    except ValueError:
        value = -1.0
    if not 0 < value < 1e12:  # NaN and infinities fail this too
        raise BadRequest(f"{name} must be a positive number.")
    return value


def viewer_uid(request: HttpRequest) -> int | None:
    """The social profile id of the logged-in viewer (made at sign-up or log-in), or None."""
    user = request.user
    return user.uid if user.is_authenticated else None


def user_or_404(login: str) -> User:
    try:
        return selectors.get_user_by_login(login=login)
    except exceptions.UnknownUser:
        raise Http404(exceptions.UNKNOWN_USER) from None


def list_or_404(list_id: int) -> UserList:
    try:
        return selectors.get_user_list(list_id=list_id)
    except exceptions.UnknownList:
        raise Http404(exceptions.UNKNOWN_LIST) from None


def wants_fragment(request: HttpRequest) -> bool:
    """An htmx request for part of a page (not a boosted navigation, which wants the whole page)."""
    return bool(request.htmx) and not request.htmx.boosted


def announce(response: HttpResponse, message: str) -> HttpResponse:
    """Ask site.js to read ``message`` out in the page's polite live region (screen readers)."""
    return trigger_client_event(response, "announce", {"message": message})

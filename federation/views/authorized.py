"""Authorized fetch, Mastodon's ``AUTHORIZED_FETCH``, as an option (``SOCIALSITE_FEDERATION_AUTHORIZED_FETCH``,
off by default): with it on, the documents other servers fetch (actors, Notes, outboxes, collections) are served
only to a request signed by an actor whose key verifies (``federation.services.request_signers``), so a server
this one suspends cannot read them, nor can anyone who will not say who they are.

- 401: no signature, or one that is malformed, stale or wrong, or whose key cannot be found;
- 403: a signature by a key of a server under a suspending domain block (refused before its key is fetched).

The instance actor (``/actor``), WebFinger, host-meta and NodeInfo stay open: another server needs the instance
actor's key to check this server's own signed fetches (which the instance actor signs), and WebFinger to find
anyone. Off, every document is served to anyone, as before; either way only what an anonymous reader may see is
served.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from federation import signatures
from federation.services import request_signers
from federation.views.common import error

SUSPENDED = "this server does not federate with yours"


def enabled() -> bool:
    return bool(getattr(settings, "SOCIALSITE_FEDERATION_AUTHORIZED_FETCH", False))


def refusal(request: HttpRequest) -> HttpResponse | None:
    """The answer refusing an unsigned or wrongly signed fetch, or None when it may be served (always, with
    authorized fetch off). A verified signer is left on the request as ``federation_signer``."""
    if not enabled():
        return None
    try:
        signature = signatures.parse(request.headers.get("Signature", ""))
    except signatures.SignatureError as problem:
        return error(f"signature required: {problem}", 401)
    if request_signers.from_suspended(signature.key_id):
        return error(SUSPENDED, 403)
    try:
        signer = request_signers.verified_actor(request, None, signature)
    except signatures.SignatureError as problem:
        return error(f"bad signature: {problem}", 401)
    if request_signers.from_suspended(signer):
        return error(SUSPENDED, 403)
    request.federation_signer = signer  # type: ignore[attr-defined]
    return None


def signed_fetch(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Serve ``view`` only to a fetch ``refusal`` lets through; with authorized fetch on, the answer varies by
    ``Signature`` too, so no cache hands a signed answer to an unsigned request."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        refused = refusal(request)
        if refused is not None:
            return refused
        response = view(request, *args, **kwargs)
        if enabled():
            response["Vary"] = ", ".join(filter(None, (response.get("Vary"), "Signature")))
        return response

    return wrapped

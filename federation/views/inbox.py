"""The inboxes: ``/users/<login>/inbox`` and the shared ``/inbox``. Only signed activities are taken, and only
from the actor that signed them; the work is done in an RQ job (``federation.services.inbound``) and the answer is
202 at once. Everything else is a 4xx with a JSON body, never a 500 nor a half-written state:

- 413: a body over ``MAX_BODY_BYTES``;
- 401: no signature, a malformed, stale or wrong one, a key that cannot be found, or an activity whose actor is
  not the signer;
- 400: a body that is not a JSON object, or an activity of a type nobody handles (``inbound.KNOWN``);
- 403: an activity from a server under a suspending domain block (``federation.services.domain_blocks``),
  refused before anything of it is fetched;
- 429: more than ``RATE_LIMIT_INBOX_PER_SERVER`` activities from one server (``socialsite.ratelimits``).
"""

from __future__ import annotations

import json
import logging

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from federation import queue, signatures
from federation.services import actors, inbound, request_signers
from federation.views.common import error
from socialsite import ratelimits
from timelines import exceptions, selectors

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 256 * 1024


def _receive(request: HttpRequest) -> HttpResponse:
    try:
        length = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        return error("bad Content-Length", 400)
    if length > MAX_BODY_BYTES:
        return error("payload too large", 413)
    body = request.body
    if len(body) > MAX_BODY_BYTES:
        return error("payload too large", 413)
    try:
        signature = signatures.parse(request.headers.get("Signature", ""))
    except signatures.SignatureError as problem:
        return error(f"signature required: {problem}", 401)
    try:
        activity = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return error("the body is not JSON", 400)
    if not isinstance(activity, dict) or not isinstance(activity.get("type"), str):
        return error("the body is not an activity", 400)
    if activity["type"] not in inbound.KNOWN:
        return error(f"unsupported activity type {activity['type'][:40]!r}", 400)
    claimed = activity.get("actor")
    claimed = claimed.get("id") if isinstance(claimed, dict) else claimed
    if not isinstance(claimed, str):
        return error("the activity has no actor", 400)
    if request_signers.from_suspended(signature.key_id, claimed):
        return error("this server does not federate with yours", 403)
    try:
        signer = request_signers.verified_actor(request, body, signature)
    except signatures.SignatureError as problem:
        return error(f"bad signature: {problem}", 401)
    if signer != claimed:
        return error("the activity's actor did not sign it", 401)
    # Counted per server once the signature says which one it is, so no one can spend another server's share.
    request.federation_server = actors.domain_of(signer)  # type: ignore[attr-defined]
    refused = ratelimits.take(request, "inbox").refused
    if refused is not None:
        response = error("rate limited", 429)
        for header, value in refused.headers().items():
            response[header] = value
        return response
    queue.enqueue_inbound(activity=activity, actor=signer)
    return HttpResponse(status=202)


@csrf_exempt
@require_POST
def shared_inbox(request: HttpRequest) -> HttpResponse:
    return _receive(request)


@csrf_exempt
@require_POST
def inbox(request: HttpRequest, login: str) -> HttpResponse:
    try:
        user = selectors.get_user_by_login(login=login)
    except exceptions.UnknownUser:
        return error("Record not found", 404)
    if user.domain:
        return error("Record not found", 404)
    return _receive(request)

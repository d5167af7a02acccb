"""Mastodon's ``list`` stream (``GET /api/v1/streaming/list?list=<id>``, and ``list`` with ``"list"`` on the
WebSocket): what the delivery writes to one of the token's person's lists, as it happens (anyone else's list, or one
that does not exist, is ``404 Record not found``).

It is the site's live list page (``streaming.live.LivePage`` with ``list_id``) with Mastodon's framing, as the
``user`` stream is the live home: one hub subscription to the ``timeline.delivery`` events that name the list's
timeline. The delivery already asked the per-recipient policy for the list's owner, and it follows the list's
members as they change: a member added while the stream is open reaches it with their next post, and a member
removed stops reaching it at once, with nothing read again by the stream. A suspension of the owner ends it at once.
Events: ``update``, ``status.update`` and ``delete``, framed as the other streams (``api.streaming``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async

from api.errors import INVALID_TOKEN, NOT_FOUND
from api.stream_transport import SSE, Transport
from api.streaming import OPENING, SSE_HEADERS, MastodonEncoder, Origin, header, take_place, token_text, viewer
from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming import writer
from streaming.flow import RAW_SEND
from streaming.live import LivePage
from timelines import exceptions, selectors, validation

_LIVE_LIST = LivePage(posts=True, lists=True)


def _list_id(scope: dict[str, Any]) -> int | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("list", [])
    try:
        return validation.parse_int(values[-1], minimum=1) if values else None
    except ValueError:
        return None


def _owns(uid: int, list_id: int) -> bool:
    """Whether ``list_id`` exists and is ``uid``'s."""
    try:
        return selectors.get_user_list(list_id=list_id).uid == uid
    except exceptions.UnknownList:
        return False


async def list_stream(scope: dict[str, Any], receive: Any, send: Any, transport: Transport = SSE) -> None:
    if scope["type"] != "http":
        return
    if scope["method"] not in ("GET", "HEAD"):
        await writer.send_json(send, 405, {"error": "Method not allowed"}, [(b"allow", b"GET, HEAD")])
        return
    raw = token_text(scope)
    if not raw:
        await writer.send_json(send, 401, {"error": INVALID_TOKEN})
        return
    list_id = _list_id(scope)
    try:
        uid, refusal = await sync_to_async(viewer, thread_sensitive=False)(raw)
        if uid is None:
            await writer.send_json(send, 401 if refusal == INVALID_TOKEN else 403, {"error": refusal})
            return
        owned = await sync_to_async(_owns, thread_sensitive=False)(uid, list_id) if list_id else False
    except UNAVAILABLE_ERRORS:
        await writer.send_json(send, 503, {"error": "The stream is unavailable right now"})
        return
    if not owned or list_id is None:
        await writer.send_json(send, 404, {"error": NOT_FOUND})
        return
    if scope["method"] == "HEAD":
        await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
        await send({"type": "http.response.body", "body": b""})
        return
    taken = await take_place(scope, send)
    if taken is None:
        return
    origin = Origin(f"{scope.get('scheme', 'http')}://{header(scope, b'host') or 'localhost'}", uid)
    try:
        await _LIVE_LIST.stream(
            uid,
            0,
            receive,
            send,
            scope.get(RAW_SEND),
            taken=taken,
            list_id=list_id,
            encoder=MastodonEncoder(uid, origin, transport=transport),
            opening=OPENING,
            serve=transport.serve,
        )
    finally:
        await taken.release()

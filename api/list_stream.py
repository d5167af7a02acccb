"""Mastodon's ``list`` stream (``GET /api/v1/streaming/list?list=<id>``, and ``list`` with ``"list"`` on the
WebSocket): the posts and reposts of a list's members as they are made, for the list's owner only (anyone else's
list, or one that does not exist, is ``404 Record not found``).

A hub subscription like the live home's (``public=False``, indexed by the members' ids), asking the per-recipient
policy for the owner with the feed's context, as the list's timeline is filled: what the owner may not see, or
has muted, never comes. The members and the owner's relations are read when the stream opens (a member added
later streams from the next connection); a suspension of the owner ends it at once. Events: ``update`` and
``delete``, framed as the other streams (``api.streaming``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from django.conf import settings

from api.errors import INVALID_TOKEN, NOT_FOUND
from api.streaming import (
    OPENING,
    SSE_HEADERS,
    MastodonEncoder,
    Origin,
    Prepared,
    header,
    take_place,
    token_text,
    viewer,
)
from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming import events, matching, writer
from streaming.flow import RAW_SEND
from streaming.hub import get_hub
from timelines import events as timeline_events
from timelines import exceptions, policy, selectors, validation

SUSPENDED = "suspended"


def _list_id(scope: dict[str, Any]) -> int | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("list", [])
    try:
        return validation.parse_int(values[-1], minimum=1) if values else None
    except ValueError:
        return None


def _members(uid: int, list_id: int) -> frozenset[int] | None:
    """The members of ``uid``'s list ``list_id``, None when it is not theirs (or does not exist)."""
    try:
        if selectors.get_user_list(list_id=list_id).uid != uid:
            return None
    except exceptions.UnknownList:
        return None
    return selectors.get_list_member_ids(list_id=list_id)


async def list_stream(scope: dict[str, Any], receive: Any, send: Any) -> None:
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
        members = await sync_to_async(_members, thread_sensitive=False)(uid, list_id) if list_id else None
        if members is None:
            await writer.send_json(send, 404, {"error": NOT_FOUND})
            return
        related = await sync_to_async(selectors.get_related_ids, thread_sensitive=False)(uid=uid)
        state = await policy.get_policy().aload(recipients=(uid,), authors=members | related | {uid})
    except UNAVAILABLE_ERRORS:
        await writer.send_json(send, 503, {"error": "The stream is unavailable right now"})
        return
    if scope["method"] == "HEAD":
        await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
        await send({"type": "http.response.body", "body": b""})
        return
    taken = await take_place(scope, send)
    if taken is None:
        return
    try:
        await _serve(scope, receive, send, uid=uid, members=members, state=state, taken=taken)
    finally:
        await taken.release()


async def _serve(
    scope: dict[str, Any], receive: Any, send: Any, *, uid: int, members: frozenset[int], state: Any, taken: Any
) -> None:
    chooser = policy.get_policy()
    hub = get_hub()

    def matches(event: dict[str, Any]) -> bool:
        if isinstance(event, Prepared):
            return True  # a status this stream's encoder shaped with the person's flags
        if not events.is_status(event):
            if getattr(event, "type", None) == timeline_events.USER_SUSPENDED and str(event.get("uid")) == str(uid):
                subscription.cut_off(SUSPENDED)
            return False
        if int(event.get("uid", 0)) not in members:
            return False
        return chooser.allows(state, recipient=uid, item=policy.Item.of_status(event, context=policy.FEED))

    subscription = hub.subscribe(
        index_keys={*(matching.author_key(member) for member in members), matching.MODERATION},
        matches=matches,
        maxsize=settings.STREAMING_QUEUE_SIZE,
        public=False,
    )
    origin = Origin(f"{scope.get('scheme', 'http')}://{header(scope, b'host') or 'localhost'}", uid)

    encoder = MastodonEncoder(uid, origin)
    encoder.attach(subscription)  # the person's flags on reposts and edits come back as ready events

    async def preamble() -> list[bytes]:
        return [OPENING]

    await writer.serve(
        send,
        receive,
        hub=hub,
        subscription=subscription,
        encoder=encoder,
        headers=SSE_HEADERS,
        preamble=preamble,
        extra=taken.keep,
        raw_send=scope.get(RAW_SEND),
    )

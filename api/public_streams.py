"""Mastodon's public streams for the client API, as server-sent events: ``GET /api/v1/streaming/public`` (and
``/public/local``: everything here is local) and ``/api/v1/streaming/hashtag?tag=`` (and ``/hashtag/local``).

They are hub subscriptions like the streaming API's own (``public=True``: only what the policy lets the public
receive, through the same hub, writer and flow control), with Mastodon's framing (``api.streaming``). Reposts
are left out, as Mastodon's public timelines leave them out. With a token, the posts of people its person
blocks, is blocked by or mutes are judged for that person by the policy too (their relations read once, when
the stream opens), and a suspension of that person ends it at once; without one, the stream is the public's.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from django.conf import settings

from api.errors import INVALID_TOKEN
from api.stream_transport import SSE, Transport
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
from timelines import policy, selectors, text

NO_TAG = "Validation failed: tag must be a hashtag"
SUSPENDED = "suspended"


def _tag(scope: dict[str, Any]) -> str | None:
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("tag", [])
    name = text.normalize_tag(values[-1].removeprefix("#")) if values else ""
    return name if text.is_tag(name) else None


def _tags(event: dict[str, Any]) -> set[str]:
    return {tag for tag in str(event.get("tags") or "").split(",") if tag}


async def _viewer_state(uid: int) -> tuple[frozenset[int], Any]:
    """Whom the viewer's relations concern, and the policy's state for them (off the event loop)."""
    related = await sync_to_async(selectors.get_related_ids, thread_sensitive=False)(uid=uid)
    state = await policy.get_policy().aload(recipients=(uid,), authors=related) if related else None
    return related, state


def public_stream(*, hashtag: bool) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any, transport: Transport = SSE) -> None:
        if scope["type"] != "http":
            return
        if scope["method"] not in ("GET", "HEAD"):
            await writer.send_json(send, 405, {"error": "Method not allowed"}, [(b"allow", b"GET, HEAD")])
            return
        tag = _tag(scope) if hashtag else None
        if hashtag and tag is None:
            await writer.send_json(send, 422, {"error": NO_TAG})
            return
        raw = token_text(scope)
        uid: int | None = None
        try:
            if raw is not None:
                uid, refusal = (
                    await sync_to_async(viewer, thread_sensitive=False)(raw) if raw else (None, INVALID_TOKEN)
                )
                if uid is None:
                    await writer.send_json(send, 401 if refusal == INVALID_TOKEN else 403, {"error": refusal})
                    return
            related, state = await _viewer_state(uid) if uid is not None else (frozenset(), None)
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
            await _serve(
                scope, receive, send, uid=uid, tag=tag, related=related, state=state, taken=taken, transport=transport
            )
        finally:
            await taken.release()

    return app


async def _serve(
    scope: dict[str, Any],
    receive: Any,
    send: Any,
    *,
    uid: int | None,
    tag: str | None,
    related: frozenset[int],
    state: Any,
    taken: Any,
    transport: Transport,
) -> None:
    """The stream itself, once its place is taken."""
    chooser = policy.get_policy()

    def matches(event: dict[str, Any]) -> bool:
        if isinstance(event, Prepared):
            return True  # a status this stream's encoder shaped with the person's flags
        if not events.is_status(event):
            return False
        if events.is_deletion(event):
            return True
        if event.get("repost_of") or (tag is not None and tag not in _tags(event)):
            return False
        if uid is not None and int(event.get("uid", 0)) in related:
            item = policy.Item.of_status(event, context=policy.LISTING)
            return chooser.allows(state, recipient=uid, item=item)
        return True

    hub = get_hub()
    subscription = hub.subscribe(
        index_keys={matching.ALL},
        matches=matches,
        maxsize=settings.STREAMING_QUEUE_SIZE,
        public=True,
    )
    origin = Origin(f"{scope.get('scheme', 'http')}://{header(scope, b'host') or 'localhost'}", uid)

    encoder = MastodonEncoder(uid or 0, origin, transport=transport)
    encoder.attach(subscription)  # the person's flags on edits come back as ready events

    async def preamble() -> list[bytes]:
        return [OPENING]

    def suspends_viewer(event: dict[str, Any]) -> bool:
        if getattr(event, "type", None) == timeline_events.USER_SUSPENDED and str(event.get("uid")) == str(uid):
            subscription.cut_off(SUSPENDED)
        return False  # nothing is ever queued here

    # Public subscriptions never see moderation events: a second one, for the token's person only, watches
    # for their suspension, which ends the stream at once as it ends their live pages.
    watcher = (
        hub.subscribe(index_keys={matching.MODERATION}, matches=suspends_viewer, public=False)
        if uid is not None
        else None
    )
    try:
        await transport.serve(
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
    finally:
        if watcher is not None:
            watcher.close()


public = public_stream(hashtag=False)
hashtag = public_stream(hashtag=True)

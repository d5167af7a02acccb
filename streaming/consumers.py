"""The streaming API's HTTP endpoints (book section 8.5), as plain ASGI applications served by daphne.

- ``GET /statuses/sample.json?identifier=ID&percent=N``: the identifier's sample (``percent=100``: firehose);
- ``POST /statuses/filter.json?identifier=ID`` with a form of ``track``, ``follow``, ``locations``
  (or ``location``), which may also come in the query string;
- ``GET /statuses/hub.json``: this process's hub counters, when ``settings.STREAMING_HUB_ENDPOINT`` is on;
- anything else under ``/statuses/``: 404.

Both streams take ``delimited=length``. This layer only checks input and maps errors: every client mistake is
a 4xx with a JSON body ``{"error": <code>, "message": <text>}`` (401 without identifier, 405 wrong method, 404
unknown path, 400 malformed, over-limit or missing predicates, 413 oversized form, 420 too many streams open for
the identifier or the client address: ``streaming.places``), and 503 when the process cannot reach Redis within
``CONNECT_TIMEOUT_SECONDS``.

A stream is one subscription to the process's hub (``streaming.hub``) served by ``streaming.writer``, the one
stream writer of the site (the live home uses it too): flow-controlled, bounded, with a keep-alive newline
when idle. A client cut off for falling behind gets ``{"disconnect": {"reason": "falling behind"}}`` as its
last line and its connection is closed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings

from socialsite.redis_client import UNAVAILABLE_ERRORS
from streaming import events, filters, places, writer
from streaming.flow import RAW_SEND
from streaming.hub import get_hub

logger = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

MAX_FORM_BYTES = 256 * 1024  # 400 phrases of 60 characters plus 5,000 logins of 20 fit with room to spare
MAX_FORM_FIELDS = 10_000
MAX_IDENTIFIER_LENGTH = 100

IDENTIFIER_MISSING = "Add ?identifier=<your client id> to the URL."
IDENTIFIER_INVALID = f"The identifier is at most {MAX_IDENTIFIER_LENGTH} printable characters."
DELIMITED_INVALID = "delimited takes only the value length."
FORM_INVALID = "Send the parameters as an application/x-www-form-urlencoded form in UTF-8."
FORM_TOO_LARGE = f"The form is larger than {MAX_FORM_BYTES} bytes."
NOT_FOUND = "No such streaming endpoint: try GET /statuses/sample.json or POST /statuses/filter.json."
METHOD_NOT_ALLOWED = "{path} takes {method} only."
UNAVAILABLE = "The stream is unavailable right now; try again in a few seconds."
TOO_MANY_CONNECTIONS = (
    "This identifier already has the most streams open at once; close one first (Twitter's connection limit)."
)
TOO_MANY_FROM_ADDRESS = "Your address already has the most streams and live pages open at once; close one first."

STREAM_HEADERS = [
    (b"content-type", b"application/json"),
    (b"cache-control", b"no-cache, no-store"),
    # Proxies such as nginx would otherwise buffer the stream.
    (b"x-accel-buffering", b"no"),
]


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = list(headers)


async def send_error(send: Send, error: ApiError) -> None:
    await writer.send_json(send, error.status, {"error": error.code, "message": error.message}, error.headers)


# --- reading the request ---------------------------------------------------------------------------------


def _parse_params(text: str) -> dict[str, list[str]]:
    try:
        return parse_qs(text, keep_blank_values=True, max_num_fields=MAX_FORM_FIELDS)
    except ValueError:
        raise ApiError(400, "malformed", FORM_INVALID) from None


def query_params(scope: Scope) -> dict[str, list[str]]:
    # Daphne refuses a query string that is not ASCII, so latin-1 cannot fail; escapes decode as UTF-8.
    return _parse_params(scope.get("query_string", b"").decode("latin-1"))


async def read_form(scope: Scope, receive: Receive) -> dict[str, list[str]] | None:
    """The request's form parameters, or None when the client disconnected before sending it all."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        if message["type"] != "http.request":
            continue
        body = message.get("body", b"")
        size += len(body)
        if size > MAX_FORM_BYTES:
            raise ApiError(413, "too_large", FORM_TOO_LARGE)
        chunks.append(body)
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    if not body.strip():
        return {}
    content_type = dict(scope.get("headers", [])).get(b"content-type", b"")
    media_type = content_type.split(b";")[0].strip().lower()
    if media_type not in (b"", b"application/x-www-form-urlencoded"):
        raise ApiError(400, "malformed", FORM_INVALID)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "malformed", FORM_INVALID) from None
    return _parse_params(text)


def require_method(scope: Scope, method: str) -> None:
    if scope["method"] != method:
        raise ApiError(
            405,
            "method_not_allowed",
            METHOD_NOT_ALLOWED.format(path=scope["path"], method=method),
            [(b"allow", method.encode())],
        )


def last(params: Mapping[str, Sequence[str]], name: str) -> str | None:
    values = params.get(name)
    return values[-1] if values else None


def require_identifier(params: Mapping[str, Sequence[str]]) -> str:
    identifier = (last(params, "identifier") or "").strip()
    if not identifier:
        raise ApiError(401, "identifier_missing", IDENTIFIER_MISSING)
    if len(identifier) > MAX_IDENTIFIER_LENGTH or not identifier.isprintable():
        raise ApiError(400, "malformed", IDENTIFIER_INVALID)
    return identifier


def parse_delimited(params: Mapping[str, Sequence[str]]) -> bool:
    value = (last(params, "delimited") or "").strip()
    if value not in ("", "length"):
        raise ApiError(400, "malformed", DELIMITED_INVALID)
    return value == "length"


def as_api_error(error: filters.FilterError) -> ApiError:
    return ApiError(400, "malformed", str(error))


# --- the endpoints ---------------------------------------------------------------------------------------


async def sample(scope: Scope, receive: Receive, send: Send) -> None:
    """``GET /statuses/sample.json``: the identifier's ``percent`` sample of every public status."""
    try:
        require_method(scope, "GET")
        params = query_params(scope)
        identifier = require_identifier(params)
        delimited = parse_delimited(params)
        try:
            percent = filters.parse_sample(last(params, "percent"))
        except filters.FilterError as error:
            raise as_api_error(error) from None
    except ApiError as error:
        await send_error(send, error)
        return
    stream_filter = filters.SampleFilter.create(identifier, percent)
    await stream(scope, receive, send, stream_filter=stream_filter, delimited=delimited, identifier=identifier)


async def filter_(scope: Scope, receive: Receive, send: Send) -> None:
    """``POST /statuses/filter.json``: public statuses matching any of the request's predicates."""
    try:
        require_method(scope, "POST")
        params = query_params(scope)
        form = await read_form(scope, receive)
        if form is None:
            return
        for name, values in form.items():
            params.setdefault(name, []).extend(values)
        identifier = require_identifier(params)
        delimited = parse_delimited(params)
        try:
            stream_filter = filters.parse_filter(params)
        except filters.FilterError as error:
            raise as_api_error(error) from None
    except ApiError as error:
        await send_error(send, error)
        return
    await stream(scope, receive, send, stream_filter=stream_filter, delimited=delimited, identifier=identifier)


async def hub_stats(scope: Scope, receive: Receive, send: Send) -> None:
    """``GET /statuses/hub.json``: this process's hub counters, for debugging and tests (404 when disabled)."""
    if not settings.STREAMING_HUB_ENDPOINT:
        await not_found(scope, receive, send)
        return
    try:
        require_method(scope, "GET")
    except ApiError as error:
        await send_error(send, error)
        return
    body = {
        **get_hub().snapshot(),
        "streams": len(writer.open_streams),
        "tasks": len(asyncio.all_tasks()),
    }
    await writer.send_json(send, 200, body)


async def not_found(scope: Scope, receive: Receive, send: Send) -> None:
    await send_error(send, ApiError(404, "not_found", NOT_FOUND))


# --- streaming -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ApiEncoder:
    """The API's bytes: one JSON object per ``\\r\\n``-terminated line, optionally length-delimited."""

    delimited: bool
    keepalive: bytes = events.KEEPALIVE

    def event(self, item: dict[str, Any]) -> bytes:
        line = events.wire_line(item)
        return events.length_delimited(line) if self.delimited else line

    def disconnect(self, reason: str) -> bytes:
        line = events.disconnect_line(reason)
        return events.length_delimited(line) if self.delimited else line


async def stream(
    scope: Scope,
    receive: Receive,
    send: Send,
    *,
    stream_filter: filters.StreamFilter,
    delimited: bool,
    identifier: str,
) -> None:
    """Answer 200 and stream what ``stream_filter`` matches until the client leaves or is cut off; a client
    whose identifier already holds ``STREAMING_MAX_CONNECTIONS`` streams, or whose address holds
    ``STREAMING_MAX_CONNECTIONS_PER_ADDRESS`` streams and live pages, gets 420 (Twitter's "Enhance Your Calm")."""
    try:
        held = await places.take(scope, identifier=identifier)
    except UNAVAILABLE_ERRORS:
        await send_error(send, ApiError(503, "unavailable", UNAVAILABLE, [(b"retry-after", b"5")]))
        return
    except places.TooManyFromAddress:
        await send_error(send, ApiError(420, "too_many_connections", TOO_MANY_FROM_ADDRESS, [(b"retry-after", b"60")]))
        return
    except places.TooManyForIdentifier:
        await send_error(send, ApiError(420, "too_many_connections", TOO_MANY_CONNECTIONS, [(b"retry-after", b"60")]))
        return
    try:
        await _stream(scope, receive, send, stream_filter=stream_filter, delimited=delimited, held=held)
    finally:
        await held.release()


async def _stream(
    scope: Scope,
    receive: Receive,
    send: Send,
    *,
    stream_filter: filters.StreamFilter,
    delimited: bool,
    held: places.Places,
) -> None:
    hub = get_hub()
    subscription = hub.subscribe(
        index_keys=stream_filter.index_keys(), matches=stream_filter, maxsize=settings.STREAMING_QUEUE_SIZE
    )

    async def unavailable() -> None:
        await send_error(send, ApiError(503, "unavailable", UNAVAILABLE, [(b"retry-after", b"5")]))

    await writer.serve(
        send,
        receive,
        hub=hub,
        subscription=subscription,
        encoder=ApiEncoder(delimited),
        headers=STREAM_HEADERS,
        unavailable=unavailable,
        extra=held.keep,
        raw_send=scope.get(RAW_SEND),
    )

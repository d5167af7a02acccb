"""The wire format of stream events, shared by the publishing services and the streaming consumers.

Every event on ``keys.STREAM_CHANNEL`` is one JSON object: a posted status exactly as stored (id, uid,
login, name, message, posted and any extra fields such as location), or, for a deletion, that same status
with ``"deleted": true`` so filters can decide whether a client had seen it (book listing 8.14).

What a streaming client receives is derived here too, one ``\\r\\n``-terminated JSON object per line:

- a posted status: the published JSON itself, byte for byte;
- a deletion: ``{"id": <id>, "deleted": true}`` (book listing 8.15), never the deleted message;
- a cut-off: ``{"disconnect": {"reason": "falling behind"}}``, the last line before the server closes;
- a keep-alive: a bare ``\\r\\n`` when the stream has been idle.

A decoded event is a ``StreamEvent``: a plain ``dict`` (so every consumer can treat it as one) that also keeps
the published text and a per-event cache, so that its wire line and its tokenized message are computed once
per event, not once per connected client.
"""

from __future__ import annotations

import json
from typing import Any

KEEPALIVE = b"\r\n"
LINE_END = b"\r\n"


class InvalidEvent(ValueError):
    """A message on the stream channel that is not a status event."""


class StreamEvent(dict[str, Any]):
    """A decoded event: the status fields, plus the published text and a cache shared by all subscribers.

    Subscribers must treat it as read-only: one instance is handed to every matching subscription.
    """

    __slots__ = ("cache", "raw")

    def __init__(self, fields: dict[str, Any], raw: str) -> None:
        super().__init__(fields)
        self.raw = raw
        self.cache: dict[str, Any] = {}


def encode_posted(status: dict[str, Any]) -> str:
    return json.dumps(status, separators=(",", ":"), ensure_ascii=False)


def encode_deleted(status: dict[str, Any]) -> str:
    return json.dumps({**status, "deleted": True}, separators=(",", ":"), ensure_ascii=False)


def decode(message: str | bytes) -> StreamEvent:
    """Decode one published event. Raises ``InvalidEvent`` for anything but an object with an integer id."""
    try:
        fields = json.loads(message)
    except ValueError as error:
        raise InvalidEvent(str(error)) from None
    if not isinstance(fields, dict) or isinstance(fields.get("id"), bool) or not isinstance(fields.get("id"), int):
        raise InvalidEvent("a stream event is a JSON object with an integer id")
    raw = message.decode() if isinstance(message, bytes) else message
    return StreamEvent(fields, raw)


def is_deletion(event: dict[str, Any]) -> bool:
    return event.get("deleted") is True


def wire_line(event: dict[str, Any]) -> bytes:
    """The line a streaming client receives for ``event``, cached on the event when it is a ``StreamEvent``."""
    cache = event.cache if isinstance(event, StreamEvent) else None
    if cache is not None and "line" in cache:
        return cache["line"]
    if is_deletion(event):
        text = json.dumps({"id": event["id"], "deleted": True}, separators=(",", ":"))
    elif isinstance(event, StreamEvent):
        text = event.raw
    else:
        text = encode_posted(event)
    line = text.encode() + LINE_END
    if cache is not None:
        cache["line"] = line
    return line


def disconnect_line(reason: str) -> bytes:
    return json.dumps({"disconnect": {"reason": reason}}, separators=(",", ":")).encode() + LINE_END


def length_delimited(line: bytes) -> bytes:
    """Twitter's ``delimited=length`` framing: the byte length of the line (its ``\\r\\n`` included), then
    ``\\r\\n``, then the line itself."""
    return b"%d\r\n" % len(line) + line

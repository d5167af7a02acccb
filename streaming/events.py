"""What a streaming client receives, derived from the typed events of ``timelines.events``.

The services publish ``{"type": "status.created", "v": 1, "status": {...}}`` and ``status.deleted`` on
``keys.STREAM_CHANNEL``; ``decode`` turns a status event into a ``StreamEvent``: the status fields, plus
``"deleted": true`` for a deletion so filters can decide whether a client had seen it (book listing 8.14).
Events of other types are skipped (``IgnoredEvent``). A client receives one ``\\r\\n``-terminated JSON
object per line:

- a posted status: the status exactly as stored (extra fields, message, posted, id, uid, login, name),
  compact, UTF-8 kept, the same bytes as before events were typed;
- a deletion: ``{"id": <id>, "deleted": true}`` (book listing 8.15), never the deleted message;
- a cut-off: ``{"disconnect": {"reason": "falling behind"}}``, the last line before the server closes;
- a keep-alive: a bare ``\\r\\n`` when the stream has been idle.

A ``StreamEvent`` is a plain ``dict`` (so every consumer can treat it as one) with a per-event cache, so that
its wire line and its tokenized message are computed once per event, not once per connected client.
"""

from __future__ import annotations

import json
from typing import Any

from timelines import events as timeline_events
from timelines.keys.channels import hub_followers, hub_home, hub_list
from timelines.records import media_of

KEEPALIVE = b"\r\n"
LINE_END = b"\r\n"


class InvalidEvent(ValueError):
    """A message on the event channel that is not a typed event."""


class IgnoredEvent(Exception):
    """A well-formed event of a type (or version) the streams do not handle; subscribers skip it."""


class StreamEvent(dict[str, Any]):
    """A decoded status event: the status fields (plus ``"deleted": true`` for a deletion), the event's type,
    and a cache shared by all subscribers.

    Subscribers must treat it as read-only: one instance is handed to every matching subscription.
    """

    __slots__ = ("cache", "type")

    def __init__(self, fields: dict[str, Any], event_type: str) -> None:
        super().__init__(fields)
        self.type = event_type
        self.cache: dict[str, Any] = {}


class DeliveryEvent(StreamEvent):
    """A decoded ``timeline.delivery`` event: the status fields (plus ``"deleted": true`` for a ``delete``), its
    ``kind``, and ``timelines``: the index keys (``timelines.keys.channels.hub_home`` / ``hub_list``) of the
    timelines the pass wrote. Only live pages and the client API's ``user`` stream subscribe to these."""

    __slots__ = ("followers_of", "kind", "timelines")

    def __init__(
        self, fields: dict[str, Any], kind: str, timelines: frozenset[str], followers_of: int | None = None
    ) -> None:
        super().__init__(fields, timeline_events.TIMELINE_DELIVERY)
        self.kind = kind
        self.timelines = timelines
        # A post merged into the homes of this account's followers when read (``services.pulled``).
        self.followers_of = followers_of


def _delivery(event: dict[str, Any]) -> DeliveryEvent:
    followers_of = event.get("followers_of")
    pulled = [hub_followers(followers_of)] if isinstance(followers_of, int) else []
    homes, lists = (hub_home(uid) for uid in event["homes"]), (hub_list(i) for i in event["lists"])
    timelines = frozenset([*homes, *lists, *pulled])
    kind = str(event.get("kind"))
    fields = dict(event.get("status") or {})
    if kind == timeline_events.DELETE:
        fields["deleted"] = True
    return DeliveryEvent(fields, kind, timelines, followers_of if pulled else None)


def decode(message: str | bytes) -> StreamEvent:
    """Decode one published event (``timelines.events``) into the status it carries.

    Raises ``InvalidEvent`` for anything that is not a typed event, and ``IgnoredEvent`` for a typed event
    that is not a status event this code knows (a later version, or a type the streams do not show).
    """
    try:
        event = timeline_events.decode(message)
    except timeline_events.InvalidEvent as error:
        raise InvalidEvent(str(error)) from None
    if event.get("v") == timeline_events.VERSION and (
        event["type"] in timeline_events.NOTIFICATION_TYPES
        or event["type"] in timeline_events.MESSAGE_TYPES
        or event["type"] in timeline_events.USER_TYPES
        or event["type"] in timeline_events.RELATION_TYPES
    ):
        # Not a status: a notice for the pages of one user, or a moderation change. Only live homes see these.
        return StreamEvent({name: value for name, value in event.items() if name not in ("type", "v")}, event["type"])
    if event["type"] == timeline_events.TIMELINE_DELIVERY and event.get("v") == timeline_events.VERSION:
        return _delivery(event)
    if not timeline_events.is_status_event(event):
        raise IgnoredEvent(event["type"])
    status = event["status"]
    if event["type"] == timeline_events.STATUS_DELETED:
        return StreamEvent({**status, "deleted": True}, event["type"])
    return StreamEvent(status, event["type"])


def is_status(event: dict[str, Any]) -> bool:
    """A status event (posted or deleted), as opposed to a notice."""
    kind = getattr(event, "type", timeline_events.STATUS_CREATED)
    return kind in timeline_events.STATUS_TYPES


def is_delivery(event: dict[str, Any]) -> bool:
    """What a delivery pass wrote to some timelines (``DeliveryEvent``)."""
    return isinstance(event, DeliveryEvent)


def is_deletion(event: dict[str, Any]) -> bool:
    return event.get("deleted") is True


def media_array(stored: Any) -> list[dict[str, Any]]:
    """A status's images as the streams carry them: type, URL paths of the image and its preview, sizes, alt
    text (the same URLs the site serves, checked against the post's policy on every fetch)."""
    return [
        {
            "id": item.id,
            "type": item.type,
            "url": item.url,
            "preview_url": item.preview_url,
            "width": item.width,
            "height": item.height,
            "description": item.description,
        }
        for item in media_of(stored)
    ]


def wire_line(event: dict[str, Any]) -> bytes:
    """The line a streaming client receives for ``event``, cached on the event when it is a ``StreamEvent``."""
    cache = event.cache if isinstance(event, StreamEvent) else None
    if cache is not None and "line" in cache:
        return cache["line"]
    if is_deletion(event):
        text = json.dumps({"id": event["id"], "deleted": True}, separators=(",", ":"))
    else:
        # The status exactly as stored and published, compact, UTF-8 kept: the stream's bytes since book 8.5;
        # its images (stored as JSON text) as an array of what a client shows.
        fields = dict(event)
        if "media" in fields:
            fields["media"] = media_array(fields["media"])
        text = json.dumps(fields, separators=(",", ":"), ensure_ascii=False)
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

"""What a live page's request asks for (``streaming.live``): the newest entry the browser has, whether it
reconnects, the conversation or list it shows, and whether the viewer may follow that list live."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async

from socialsite.redis_client import UNAVAILABLE_ERRORS
from timelines import exceptions, selectors, validation

NOT_YOUR_LIST = "Only the list's owner follows it live.\n"


def since_id(scope: dict[str, Any]) -> int:
    """The newest entry id the browser already has: the page's, or ``Last-Event-ID`` after a reconnect."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = [*query.get("since_id", [])]
    for name, value in scope.get("headers", []):
        if name == b"last-event-id":
            values.append(value.decode("latin-1"))
    return max([0, *(validation.parse_int(value, minimum=0) for value in values if value != "")])


# At most this many entries are compared (a page shows 30); a longer mark is ignored, as a missing one is.
MAX_RENDERED = 100


def rendered(scope: dict[str, Any]) -> dict[int, int] | None:
    """What the page was rendered with (``?rendered=<entry>.<edits>,...``, ``timelines.views.live_marks``): entry id
    -> its status's number of edits; None when the page did not say (an app, an old page) or said it badly."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    values = query.get("rendered")
    if not values:
        return None
    marks = [mark for mark in values[-1].split(",") if mark]
    if len(marks) > MAX_RENDERED:
        return None
    shown: dict[int, int] = {}
    for mark in marks:
        entry, _, edits = mark.partition(".")
        if not (entry.isdigit() and edits.isdigit()):
            return None
        shown[int(entry)] = int(edits)
    return shown


def resynced(scope: dict[str, Any]) -> bool:
    """Whether the browser reconnects, and may have missed anything (``?resync=1``, or ``Last-Event-ID``: an
    ``EventSource`` reconnecting on its own)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return query.get("resync", [""])[-1] == "1" or any(name == b"last-event-id" for name, _ in scope.get("headers", []))


def query_id(scope: dict[str, Any], name: str) -> int | None:
    """A positive id of the query (``conversation``: the ``/messages/<id>`` a page shows; ``list``: the list a
    ``/lists/<id>`` page shows), None when absent."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = query.get(name, [])
    if not values or values[-1] == "":
        return None
    return validation.parse_int(values[-1], minimum=1)


async def list_refusal(uid: int, list_id: int | None) -> tuple[int, str] | None:
    """Why ``uid`` may not follow list ``list_id`` live (status and text), or None. The delivery writes a list's
    timeline for its owner, so only the owner's page follows it; anyone else's page stays as read."""
    if list_id is None:
        return 400, "Name the list: ?list=<id>.\n"
    try:
        owner = (await sync_to_async(selectors.get_user_list, thread_sensitive=False)(list_id=list_id)).uid
    except exceptions.UnknownList:
        return 404, "No such list.\n"
    except UNAVAILABLE_ERRORS:
        return 503, "The timeline store is not answering right now.\n"
    return None if owner == uid else (403, NOT_YOUR_LIST)

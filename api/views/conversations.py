"""Direct conversations (``/api/v1/conversations``): the person's conversations of direct messages, newest message
first, with Mastodon's ``Link`` pages; ``POST /:id/read`` marks one read (as opening it on the site does) and
``DELETE /:id`` takes it out of the person's list until its next message (Mastodon's "remove"). Someone else's
conversation is ``404 Record not found``, like one that does not exist.

A page is cut by the time of a conversation's last message, which moves it to the top: the cursor in the links is
that time in whole microseconds (what the site stores), so it names one conversation exactly."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.conversations import conversation, conversations
from api.http import endpoint, id_param, limit_param, not_found, paginated, parse_id
from timelines import exceptions, selectors, services

MICROS = 1_000_000


def _seconds(cursor: int | None) -> float | None:
    # The stored times are whole microseconds: dividing gives back exactly the float Redis holds.
    return cursor / MICROS if cursor else None


@endpoint("GET", scopes={"GET": "read:statuses"})
def index(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    limit = limit_param(request)
    before = _seconds(id_param(request, "max_id"))
    newer_than = _seconds(id_param(request, "min_id"))
    if newer_than is not None:
        found = selectors.get_conversations(uid=viewer, before=before, count=limit, after=newer_than, oldest_first=True)
    else:
        since = _seconds(id_param(request, "since_id"))
        found = selectors.get_conversations(uid=viewer, before=before, count=limit, after=since)
    cursors = [round(summary.time * MICROS) for summary in found]
    return paginated(request, conversations(request, found), cursors, limit=limit)


def _summary(request: HttpRequest, conversation_id: str) -> Any:
    try:
        return selectors.get_conversation_summary(
            uid=request.viewer_uid,  # type: ignore[attr-defined]
            conversation_id=parse_id(conversation_id),
        )
    except exceptions.ConversationNotFound:
        raise not_found() from None


@endpoint("POST", scopes={"POST": "write:conversations"})
def read(request: HttpRequest, conversation_id: str) -> Any:
    found = _summary(request, conversation_id)
    try:
        services.mark_conversation_read(uid=request.viewer_uid, conversation_id=found.id)  # type: ignore[attr-defined]
    except exceptions.ConversationNotFound:
        raise not_found() from None
    return conversation(request, _summary(request, conversation_id))


@endpoint("DELETE", scopes={"DELETE": "write:conversations"})
def remove(request: HttpRequest, conversation_id: str) -> Any:
    found = _summary(request, conversation_id)
    try:
        services.remove_conversation(uid=request.viewer_uid, conversation_id=found.id)  # type: ignore[attr-defined]
    except exceptions.ConversationNotFound:
        raise not_found() from None
    return {}

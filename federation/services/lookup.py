"""What the address of another server's profile or post names (search, issue 22): one signed fetch through
``federation.client`` (the instance actor signs it, so servers requiring signed fetches answer), then the
actor recorded (``actors.record_actor``) or the Note stored like any remote post
(``remote_statuses.store_note``), after its author is found. A direct Note is never stored from a fetch (it
would open a conversation nobody sent); a Note must be on its author's host. Known addresses cost no fetch.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from federation import client, identities, queue, store
from federation.models import RemoteActor
from federation.services import actors, domain_blocks, remote_statuses
from timelines import visibility as visibilities

NOTE_TYPES = frozenset({"Note", "Article", "Question"})
ACCOUNT = "account"
STATUS = "status"


def resolve_url(url: str) -> tuple[str, int] | None:
    """``("account", uid)`` or ``("status", status_id)`` for the address of another server's actor or Note,
    fetched and stored when not known yet; None when it cannot be fetched, is refused (a suspended server,
    this server's own address) or is neither."""
    url = url.strip()
    try:
        if identities.is_local(url) or domain_blocks.is_suspended(actors.domain_of(url)):
            return None
    except ValueError:
        return None
    known = RemoteActor.objects.filter(models.Q(uri=url) | models.Q(url=url)).first()
    if known is not None:
        return (ACCOUNT, known.uid)
    status_id = store.object_status(url)
    if status_id is not None:
        return (STATUS, status_id)
    try:
        document = client.fetch_object(url)
    except client.FetchError:
        return None
    if document.get("type") in actors.ACTOR_TYPES:
        try:
            actor = actors.record_actor(document)
        except actors.ActorError:
            return None
        queue.enqueue_backfill(uid=actor.uid)
        return (ACCOUNT, actor.uid)
    status_id = store_fetched_note(document)
    return (STATUS, status_id) if status_id is not None else None


def store_fetched_note(note: dict[str, Any]) -> int | None:
    """Store a Note fetched from its server (not delivered to an inbox): its author is found (fetched when
    unknown), it must be on the author's host and public, unlisted or for followers; returns its status id
    (the one stored before, for a Note known), or None when it is refused."""
    uri, author_uri = note.get("id"), note.get("attributedTo")
    if isinstance(author_uri, list):
        author_uri = next((item for item in author_uri if isinstance(item, str)), None)
    if isinstance(author_uri, dict):
        author_uri = author_uri.get("id")
    if note.get("type") not in NOTE_TYPES or not isinstance(uri, str) or not isinstance(author_uri, str):
        return None
    if identities.is_local(uri) or not client.same_host(uri, author_uri):
        return None
    known = store.object_status(uri)
    if known is not None:
        return known
    try:
        author = actors.actor_by_uri(author_uri)
    except actors.ActorError:
        return None
    if remote_statuses.visibility_of(note, author) == visibilities.DIRECT:
        return None
    return remote_statuses.store_note(note={**note, "type": "Note"}, author=author)


def resolve_account_uid(acct: str) -> int | None:
    """The uid of remote account ``login@domain`` (``actors.resolve_account_uid``) or of the actor at an
    address (``resolve_url``); None otherwise."""
    if acct.strip().startswith(("http://", "https://")):
        found = resolve_url(acct)
        return found[1] if found is not None and found[0] == ACCOUNT else None
    return actors.resolve_account_uid(acct)

"""The posts above another server's post that answers one missing here (issue 22): when a remote post is stored
(received in an inbox, fetched by its address, or fetched as a reply) and its ``inReplyTo`` names a post this
server does not have, ``remote_statuses.store_note`` queues this job, once per missing post within
``keys.ANCESTORS_COOLDOWN_SECONDS`` (``ap:ancestors_fetched:{...}``). The job walks ``inReplyTo`` up, fetching each
post from its server through the same client and domain-block rules as every fetch (``replies.Budget``: signed by
the instance actor, nothing from a suspended server), at most ``MAX_DEPTH`` posts and ``MAX_FETCHES`` fetches,
stopping at a post known here. It stores them oldest first, each linked under the one above it, and then links the
post that started it (and the replies below it) into that thread, so its page shows the chain.

A post refused by ``lookup.store_fetched_note`` (a direct one, one not on its author's host) breaks the chain there:
the posts below it are stored, the first of them a thread of its own.
"""

from __future__ import annotations

from typing import Any

from federation import identities, store
from federation.services import lookup, replies
from timelines import store as timelines_store

MAX_DEPTH = 10
MAX_FETCHES = 20


def _answered(note: dict[str, Any]) -> str | None:
    answered = note.get("inReplyTo")
    answered = answered.get("id") if isinstance(answered, dict) else answered
    return answered if isinstance(answered, str) else None


def fetch_ancestors(*, status_id: int, parent_uri: str) -> int:
    """Fetch and store the posts above remote post ``status_id``, starting with ``parent_uri``, which it answers,
    and link the post under them. Returns how many were stored. Idempotent: a post known is not fetched."""
    budget = replies.Budget(fetches=MAX_FETCHES, stored=MAX_DEPTH)
    chain: list[dict[str, Any]] = []
    uri: str | None = parent_uri
    seen: set[str] = set()
    while uri and uri not in seen and len(chain) < MAX_DEPTH:
        seen.add(uri)
        if identities.is_local(uri) or store.object_status(uri) is not None:
            break
        note = budget.fetch(uri)
        if note is None or note.get("id") != uri or note.get("type") not in lookup.NOTE_TYPES:
            break
        chain.append(note)
        uri = _answered(note)
        if uri:
            # Stored below, the top post of the chain must not queue another job for what is above it: the
            # bounds are this job's.
            store.claim_ancestors_fetch(uri)
    stored = 0
    for note in reversed(chain):
        if store.object_status(note["id"]) is None and lookup.store_fetched_note(note) is not None:
            stored += 1
    parent_id = store.object_status(parent_uri)
    if parent_id is not None:
        # Every post stored here that answers it, not only the one that queued this job.
        for orphan in sorted({status_id, *store.take_orphans(parent_uri)}):
            _graft(orphan, parent_id)
    return stored


def _graft(status_id: int, parent_id: int) -> None:
    """Link stored post ``status_id``, which had no parent here, under ``parent_id``: its reply fields, its
    place among the parent's replies and in the parent's thread, and the replies below it moved into that
    thread."""
    statuses, conversations = timelines_store.statuses, timelines_store.conversations
    fields, parent = statuses.get_status(status_id), statuses.get_status(parent_id)
    if not fields or not parent or fields.get("in_reply_to"):
        return
    root = int(parent.get("root") or parent["id"])
    below = conversations.thread_links(int(fields.get("root") or status_id))
    for name, value in (
        ("in_reply_to", str(parent_id)),
        ("in_reply_to_uid", str(parent["uid"])),
        ("in_reply_to_login", parent["login"]),
        ("root", str(root)),
    ):
        statuses.set_field_if_exists(status_id, name, value)
    conversations.add_reply(parent_id, status_id, float(fields["posted"]))
    conversations.link_into_thread(root, status_id, parent_id)
    for child, its_parent in below.items():
        conversations.link_into_thread(root, child, its_parent)
        statuses.set_field_if_exists(child, "root", str(root))

"""Replies of other servers' posts that never reached this server (a reply is delivered to its author's server
and to the replier's followers, so a thread seen from here may miss most of its replies): when the thread of a
remote post is opened (its page, or the client API's ``context``), its ``replies`` collection is read in a job
and the replies missing here are fetched and stored like any remote post, linked into the thread, so they
show on the next load.

Bounded: at most ``MAX_REPLIES`` replies stored, ``MAX_FETCHES`` documents fetched and ``MAX_DEPTH`` levels
below the opened post per job, ``MAX_PAGES`` pages and ``MAX_ITEMS`` items per collection; and a post's replies
are asked for at most once per ``COOLDOWN_SECONDS`` (``ap:replies_fetched:{id}``), so reloading a thread fetches
nothing. Mastodon serves ``replies`` as a ``Collection`` whose ``first`` page (embedded or an address) holds
``items``, ids or embedded Notes, and whose ``next`` pages hold the rest; an embedded Note is taken as it is
only when it is on the host that served the collection, anything else is fetched from its own server.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from federation import client, identities, queue, store
from federation.services import actors, domain_blocks, lookup
from timelines import store as timelines_store

MAX_REPLIES = 30
MAX_ITEMS = 40
MAX_FETCHES = 40
MAX_DEPTH = 3
MAX_PAGES = 3
COOLDOWN_SECONDS = 15 * 60


def thread_opened(status: Mapping[str, Any]) -> None:
    """Queue the fetch of remote post ``status``'s missing replies, unless they were asked for within the
    cooldown. One Redis command when nothing is queued (a suspended server is the job's to skip)."""
    status_id = int(status["id"])
    if store.claim_replies_fetch(status_id, COOLDOWN_SECONDS):
        queue.enqueue_replies(status_id=status_id)


def fetch_pending(status: Mapping[str, Any]) -> bool:
    """Whether the replies of remote post ``status`` are being fetched now (its page waits for them)."""
    return queue.replies_pending(int(status["id"]))


@dataclass
class Budget:
    """What a fetching job may still fetch and store (``federation.services.ancestors`` uses it too)."""

    # Read when a job starts, so the bounds are the module's as they are then.
    fetches: int = field(default_factory=lambda: MAX_FETCHES)
    stored: int = field(default_factory=lambda: MAX_REPLIES)

    def fetch(self, url: str) -> dict[str, Any] | None:
        """The document at ``url`` (signed by the instance actor), or None when it cannot be had or the job
        has fetched its share; nothing from a suspended server."""
        if self.fetches <= 0:
            return None
        try:
            if domain_blocks.is_suspended(actors.domain_of(url)):
                return None
        except ValueError:
            return None
        self.fetches -= 1
        try:
            return client.fetch_object(url)
        except client.FetchError:
            return None


def fetch_replies(*, status_id: int) -> int:
    """Fetch and store the replies of remote post ``status_id`` missing here, and theirs, breadth first within
    the bounds above; returns how many were stored. Idempotent: a reply known already is not stored again."""
    fields = timelines_store.statuses.get_status(status_id)
    uri = fields.get("uri") if fields else None
    if not uri:
        return 0
    budget = Budget()
    note = budget.fetch(uri)
    if note is None or note.get("id") != uri:
        return 0
    stored = 0
    waiting: deque[tuple[dict[str, Any], int]] = deque([(note, 1)])
    while waiting and budget.fetches > 0 and budget.stored > 0:
        parent, depth = waiting.popleft()
        for item in _items(parent, budget):
            reply = _reply(item, parent=parent, collection_host=str(parent["id"]), budget=budget)
            if reply is None:
                continue
            if store.object_status(reply["id"]) is None:
                if budget.stored <= 0:
                    return stored
                if lookup.store_fetched_note(reply) is None:
                    continue
                stored += 1
                budget.stored -= 1
            if depth < MAX_DEPTH:
                waiting.append((reply, depth + 1))
    return stored


def _page_items(page: Mapping[str, Any]) -> list[Any]:
    items = page.get("orderedItems", page.get("items"))
    return items if isinstance(items, list) else []


def _items(note: Mapping[str, Any], budget: Budget) -> list[Any]:
    """The items of ``note``'s ``replies`` collection: its own, then its pages' (``first``, then ``next``, at
    most ``MAX_PAGES``), at most ``MAX_ITEMS``. Every address followed must be on the Note's host."""
    owner = str(note.get("id") or "")
    collection: Any = note.get("replies")
    if isinstance(collection, str):
        collection = budget.fetch(collection) if client.same_host(collection, owner) else None
    if not isinstance(collection, dict):
        return []
    found = _page_items(collection)
    page: Any = collection.get("first")
    for _ in range(MAX_PAGES):
        if len(found) >= MAX_ITEMS or page is None:
            break
        if isinstance(page, str):
            page = budget.fetch(page) if client.same_host(page, owner) else None
        if not isinstance(page, dict):
            break
        found += _page_items(page)
        page = page.get("next")
    return found[:MAX_ITEMS]


def _reply(item: Any, *, parent: Mapping[str, Any], collection_host: str, budget: Budget) -> dict[str, Any] | None:
    """The Note of one item of ``parent``'s replies (embedded, or fetched from its server), when it answers
    ``parent``; None for this server's own posts, for anything else, or when it cannot be had."""
    identifier = item.get("id") if isinstance(item, dict) else item
    if not isinstance(identifier, str) or identities.is_local(identifier):
        return None
    if isinstance(item, dict) and client.same_host(identifier, collection_host):
        document: dict[str, Any] | None = item
    else:
        document = budget.fetch(identifier)
    if document is None or document.get("id") != identifier or document.get("type") not in lookup.NOTE_TYPES:
        return None
    answered = document.get("inReplyTo")
    answered = answered.get("id") if isinstance(answered, dict) else answered
    return document if answered == parent.get("id") else None

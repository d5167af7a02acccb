"""Reading direct messages: someone's conversations (newest first, unread ones marked) and one conversation's
messages, for its participants only.

``get_conversations`` costs four round trips whatever the page's size (the conversations with the unread marks,
their participants and last message ids, the participants' hashes, the last messages); ``get_conversation``
three plus a page read. A message the policy hides from the viewer (someone they blocked since) is left out.
"""

from __future__ import annotations

from dataclasses import dataclass

from timelines import exceptions, limits, policy, store, uris
from timelines.records import Author, TimelineEntry
from timelines.selectors.entries import entries_for

PAGE_SIZE = 30


@dataclass(frozen=True, slots=True)
class ConversationSummary:
    """One line of ``/messages``: the other participants, the last message the viewer may see, and whether a
    message in it is unread."""

    id: int
    others: list[Author]
    last: TimelineEntry | None
    time: float
    unread: bool

    @property
    def names(self) -> str:
        return ", ".join(person.name for person in self.others) or "Only you"


@dataclass(frozen=True, slots=True)
class Conversation:
    """One conversation as its participant ``viewer`` sees it: everyone else in it, and a page of its messages,
    newest first (``before``: the cursor of the next, older page, None at the end)."""

    id: int
    others: list[Author]
    messages: list[TimelineEntry]
    unread: bool
    before: float | None

    @property
    def names(self) -> str:
        return ", ".join(person.name for person in self.others) or "nobody else"


def _authors(uids: list[int]) -> dict[int, Author]:
    """The participants that still exist, by uid (an erased account drops out). One round trip."""
    found: dict[int, Author] = {}
    for uid, fields in zip(uids, store.users.get_users(uids), strict=True):
        if fields.get("login"):
            # Another server's account is login@domain, as its profile's address (/@login@domain) is.
            login = uris.acct(fields["login"], fields.get("domain"))
            found[uid] = Author(uid, login, fields.get("name") or fields["login"])
    return found


def get_conversations(
    *,
    uid: int,
    before: float | None = None,
    count: int = PAGE_SIZE,
    after: float | None = None,
    oldest_first: bool = False,
) -> list[ConversationSummary]:
    """``uid``'s conversations, newest message first, with a last message older than ``before`` (and newer than
    ``after``; with ``oldest_first``, the ``count`` just after ``after``, a page back towards the newest)."""
    count = max(1, min(count, limits.MAX_PAGE_SIZE))
    page, unread = store.messages.conversations_page(
        uid, before=before, count=count, after=after, oldest_first=oldest_first
    )
    return _summaries(uid, page, unread)


def get_conversation_summary(*, uid: int, conversation_id: int) -> ConversationSummary:
    """One line of ``uid``'s conversations, as ``get_conversations`` shows it. Raises ``ConversationNotFound``
    when there is none, ``uid`` is not part of it, or it is not among their conversations (they removed it, and
    no message came since)."""
    if not 0 < conversation_id < limits.MAX_ID:
        raise exceptions.ConversationNotFound()
    when, unread = store.messages.listed(uid, conversation_id)
    if when is None:
        raise exceptions.ConversationNotFound()
    found = _summaries(uid, [(conversation_id, when)], {conversation_id} if unread else set())
    if not found:
        raise exceptions.ConversationNotFound()
    return found[0]


def _summaries(uid: int, page: list[tuple[int, float]], unread: set[int]) -> list[ConversationSummary]:
    ids = [cid for cid, _ in page]
    summaries = store.messages.summaries(ids)
    people = _authors(sorted({person for found, _ in summaries for person in found if person != uid}))
    last_ids = [last for _, last in summaries if last is not None]
    entries, _ = entries_for(last_ids, viewer=uid, context=policy.PAGE)
    shown = {entry.status.id: entry for entry in entries}
    result = []
    for (cid, when), (found, last) in zip(page, summaries, strict=True):
        if uid not in found:
            continue  # a conversation id without its participants: never shown
        others = [people[person] for person in found if person != uid and person in people]
        entry = shown.get(last) if last is not None else None
        result.append(ConversationSummary(cid, others, entry, when, cid in unread))
    return result


def get_conversation(
    *, uid: int, conversation_id: int, before: float | None = None, count: int = PAGE_SIZE
) -> Conversation:
    """Conversation ``conversation_id`` as its participant ``uid`` sees it. Raises ``ConversationNotFound``
    when there is none or ``uid`` is not part of it."""
    if not 0 < conversation_id < limits.MAX_ID:
        raise exceptions.ConversationNotFound()
    found = store.messages.participants(conversation_id)
    if uid not in found:
        raise exceptions.ConversationNotFound()
    count = max(1, min(count, limits.MAX_PAGE_SIZE))
    page = store.messages.messages_page(conversation_id, before=before, count=count)
    entries, _ = entries_for([status_id for status_id, _ in page], viewer=uid, context=policy.PAGE)
    people = _authors([person for person in found if person != uid])
    return Conversation(
        id=conversation_id,
        others=[people[person] for person in found if person in people],
        messages=entries,
        unread=store.messages.is_unread(uid, conversation_id),
        before=page[-1][1] if len(page) >= count else None,
    )


def get_unread_conversations(*, uid: int) -> int:
    """How many of ``uid``'s conversations hold a message they have not read (the header's "Messages N")."""
    return store.messages.unread_count(uid)


def find_conversation(*, uid: int, with_uids: list[int]) -> int | None:
    """The id of the conversation of ``uid`` and exactly ``with_uids``, None when they never talked."""
    return store.messages.find_conversation([uid, *with_uids])

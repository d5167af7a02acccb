"""The audit's checks of direct messages (``manage.py audit_timelines``, ``timelines.audit``), and their repairs.

- a direct message is in no home, list or profile timeline, no tag timeline and not in the search index (the
  status hash is the truth: its ``visibility``); statuses posted before direct messages had conversations were
  delivered to mentioned followers' homes and their author's profile, and indexed for search;
- every direct message is in the conversation of its participants (its author and the people it mentions):
  a repair puts it there as its delivery would, unread for its recipients (they never saw it in /messages);
- a conversation holds no deleted message; a person's unread marks name only conversations on their list, and
  their list names only conversations that still hold a message.

Only ``store`` is used; each repair is a step the services use. Cost: O(statuses + timeline entries +
conversations), pipelined in chunks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from timelines import keys, store, text
from timelines import visibility as visibilities

CHUNK = 200
FIELDS = ("uid", "visibility", "private", "mentions", "message", "posted", "repost_of")


class Finding(Protocol):
    """What ``timelines.audit.Finding`` offers a check."""

    checked: int
    fixed: int

    def problem(self, example: str) -> None: ...


def direct_messages(*, last_status_id: int, chunk: int = CHUNK) -> dict[int, dict[str, str]]:
    """Every direct message that exists, by id, with the fields the checks need."""
    found: dict[int, dict[str, str]] = {}
    for start in range(1, last_status_id + 1, chunk):
        ids = list(range(start, min(start + chunk, last_status_id + 1)))
        for status_id, fields in zip(ids, store.statuses.get_status_fields(ids, FIELDS), strict=True):
            direct = visibilities.of_status(fields) == visibilities.DIRECT
            if direct and fields.get("uid") and not fields.get("repost_of"):
                found[status_id] = {**fields, "id": str(status_id)}
    return found


def out_of_feeds(finding: Finding, messages: dict[int, dict[str, str]], timelines: Sequence[str], fix: bool) -> None:
    """No direct message in a home, list or profile timeline, a tag timeline or the search index."""
    if not messages:
        return
    for key in timelines:
        ids = store.timelines.timeline_ids(key)
        finding.checked += len(ids)
        held = [status_id for status_id in ids if status_id in messages]
        for status_id in held:
            finding.problem(f"{key} holds direct message {status_id}")
        if fix and held:
            store.timelines.remove_from_timeline(key, held)
            finding.fixed += len(held)
    for status_id, fields in messages.items():
        message = fields.get("message", "")
        finding.checked += 1
        words = store.search.indexed_words(status_id, text.search_words(message))
        tags = text.tags(message)
        tagged = [tag for tag, score in zip(tags, _scores(tags, status_id), strict=True) if score is not None]
        if words or tagged:
            finding.problem(f"direct message {status_id} is indexed for search or tags")
            if fix:
                store.search.unindex_words(status_id, words)
                store.tags.remove_from_tag_timelines(tagged, status_id)
                finding.fixed += 1


def _scores(tags: list[str], status_id: int) -> list[float | None]:
    return [store.graph.member_scores(keys.tag_timeline(tag), [status_id])[0] for tag in tags]


def in_conversations(finding: Finding, messages: dict[int, dict[str, str]], fix: bool) -> None:
    """Every direct message in its participants' conversation."""
    for status_id, fields in messages.items():
        people = sorted(visibilities.mentioned_uids(fields) | {int(fields["uid"])})
        finding.checked += 1
        conversation_id = store.messages.find_conversation(people)
        if conversation_id is not None and status_id in store.messages.message_ids(conversation_id):
            continue
        finding.problem(f"direct message {status_id} is in no conversation")
        if fix:
            conversation_id = store.messages.conversation_id(people)
            store.messages.add_message(conversation_id, people, int(fields["uid"]), status_id, float(fields["posted"]))
            finding.fixed += 1


def conversation_zombies(finding: Finding, missing: Callable[[Sequence[int]], list[int]], fix: bool) -> None:
    """No deleted message left in a conversation."""
    for conversation_id in range(1, store.messages.last_conversation_id() + 1):
        ids = store.messages.message_ids(conversation_id)
        finding.checked += len(ids)
        gone = missing(ids)
        for status_id in gone:
            finding.problem(f"{keys.conversation_messages(conversation_id)} holds deleted message {status_id}")
        if fix and gone:
            store.messages.remove_ids(conversation_id, gone)
            finding.fixed += len(gone)


def unread_marks(finding: Finding, uids: Sequence[int], fix: bool) -> None:
    """Each person's list names conversations holding a message, and their unread marks conversations on it."""
    for uid in uids:
        listed = store.messages.all_conversation_ids(uid)
        finding.checked += len(listed)
        summaries = store.messages.summaries(listed)
        empty = [cid for cid, (_, last) in zip(listed, summaries, strict=True) if last is None]
        for cid in empty:
            finding.problem(f"{keys.conversations_of(uid)} lists conversation {cid}, which holds no message")
        stray = sorted(store.messages.unread_ids(uid) - set(listed) - set(empty))
        for cid in stray:
            finding.problem(f"{keys.conversations_unread(uid)} marks conversation {cid}, which is not on the list")
        if fix and (empty or stray):
            store.messages.forget_conversations(uid, empty)
            store.messages.forget_unread(uid, stray)
            finding.fixed += len(empty) + len(stray)

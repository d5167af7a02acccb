"""Direct messages (``keys.messages``): which conversation a set of people talks in, its messages, each
person's conversations and unread marks.

See ``timelines.store`` for the rules every store module follows. Every write here is idempotent (HSETNX,
ZADD of the same score, SADD, SREM), so a retried message changes nothing; the keys of one person or one
conversation share a slot, and a write spanning several is a non-transactional pipeline.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys


def participants_key(participants: Sequence[int]) -> str:
    """The field of ``conversation:ids:`` for a set of people: their sorted uids joined by ","."""
    return ",".join(str(uid) for uid in sorted(set(participants)))


def conversation_id(participants: Sequence[int]) -> int:
    """The id of the conversation of exactly ``participants``, made when there is none yet. At most three
    round trips; two writers racing on a new set agree (HSETNX), the loser's id is simply never used."""
    client = get_redis()
    field = participants_key(participants)
    found = client.hget(keys.CONVERSATION_IDS, field)
    if found is not None:
        return int(found)
    candidate = int(client.incr(keys.CONVERSATION_ID_COUNTER))
    # The conversation's own hash first: the id is never visible without its participants.
    client.hset(keys.conversation(candidate), "participants", field)
    if client.hsetnx(keys.CONVERSATION_IDS, field, candidate):
        return candidate
    client.delete(keys.conversation(candidate))
    return int(client.hget(keys.CONVERSATION_IDS, field))


def find_conversation(participants: Sequence[int]) -> int | None:
    """The id of the conversation of exactly ``participants``, None when they never talked."""
    found = get_redis().hget(keys.CONVERSATION_IDS, participants_key(participants))
    return int(found) if found is not None else None


def participants(conversation_id: int) -> list[int]:
    """The uids of the people of a conversation (``[]`` when there is no such conversation)."""
    field = get_redis().hget(keys.conversation(conversation_id), "participants")
    return [int(uid) for uid in field.split(",")] if field else []


def add_message(
    conversation_id: int, people: Sequence[int], author: int, status_id: int, posted: float
) -> dict[int, int]:
    """Add message ``status_id`` by ``author`` to its conversation, put the conversation on top of each of
    ``people``'s conversations (never lower: ZADD GT), mark it unread for everyone but the author, and return
    each person's number of unread conversations. One pipelined round trip."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.zadd(keys.conversation_messages(conversation_id), {str(status_id): posted})
        pipe.zadd(keys.messages_sent(author), {str(status_id): posted})
        for uid in people:
            pipe.zadd(keys.conversations_of(uid), {str(conversation_id): posted}, gt=True)
            if uid == author:
                pipe.srem(keys.conversations_unread(uid), conversation_id)
            else:
                pipe.sadd(keys.conversations_unread(uid), conversation_id)
            pipe.scard(keys.conversations_unread(uid))
        replies = pipe.execute()
    counts = replies[2:][2::3]
    return {uid: int(count) for uid, count in zip(people, counts, strict=True)}


def remove_message(conversation_id: int, author: int, status_id: int) -> tuple[int, float | None]:
    """Take a deleted message out of its conversation and its author's sent messages; returns how many
    messages the conversation still holds and the time of its newest one (None when empty). One round
    trip."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.zrem(keys.conversation_messages(conversation_id), str(status_id))
        pipe.zrem(keys.messages_sent(author), str(status_id))
        pipe.zrevrange(keys.conversation_messages(conversation_id), 0, 0, withscores=True)
        _, _, newest = pipe.execute()
    return (1, float(newest[0][1])) if newest else (0, None)


def set_last(conversation_id: int, people: Sequence[int], last: float | None) -> dict[int, int]:
    """Put the conversation at the time of its newest message ``last`` in each of ``people``'s
    conversations, or (None: no message left) take it out of them and their unread marks. Returns each
    person's number of unread conversations. One round trip."""
    with get_redis().pipeline(transaction=False) as pipe:
        for uid in people:
            if last is None:
                pipe.zrem(keys.conversations_of(uid), str(conversation_id))
                pipe.srem(keys.conversations_unread(uid), conversation_id)
            else:
                # XX: a person who left the conversation's list (an erased account) is not put back.
                pipe.zadd(keys.conversations_of(uid), {str(conversation_id): last}, xx=True)
            pipe.scard(keys.conversations_unread(uid))
        replies = pipe.execute()
    step = 3 if last is None else 2
    return {uid: int(replies[index * step + step - 1]) for index, uid in enumerate(people)}


def conversations_page(
    uid: int, *, before: float | None, count: int, after: float | None = None, oldest_first: bool = False
) -> tuple[list[tuple[int, float]], set[int]]:
    """``uid``'s conversations (id, time of the last message), newest first, with a time strictly between
    ``after`` and ``before``: the newest ``count`` of them, or with ``oldest_first`` the ``count`` just after
    ``after``; and the ids of their unread ones. One round trip."""
    highest = "+inf" if before is None else f"({before!r}"
    lowest = "-inf" if after is None else f"({after!r}"
    with get_redis().pipeline(transaction=False) as pipe:
        if oldest_first:
            pipe.zrangebyscore(keys.conversations_of(uid), lowest, highest, start=0, num=count, withscores=True)
        else:
            pipe.zrevrangebyscore(keys.conversations_of(uid), highest, lowest, start=0, num=count, withscores=True)
        pipe.smembers(keys.conversations_unread(uid))
        page, unread = pipe.execute()
    if oldest_first:
        page.reverse()
    return [(int(cid), float(score)) for cid, score in page], {int(cid) for cid in unread}


def listed(uid: int, conversation_id: int) -> tuple[float | None, bool]:
    """The time of ``conversation_id`` in ``uid``'s conversations (None when it is not among them) and whether it
    is unread there. One round trip."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.zscore(keys.conversations_of(uid), str(conversation_id))
        pipe.sismember(keys.conversations_unread(uid), conversation_id)
        when, unread = pipe.execute()
    return (float(when) if when is not None else None), bool(unread)


def unlist(uid: int, conversation_id: int) -> tuple[bool, int]:
    """Take a conversation out of ``uid``'s list and unread marks (its next message puts it back: ``add_message``
    adds it again); whether it was listed, and how many stay unread. One round trip."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.zrem(keys.conversations_of(uid), str(conversation_id))
        pipe.srem(keys.conversations_unread(uid), conversation_id)
        pipe.scard(keys.conversations_unread(uid))
        removed, _, unread = pipe.execute()
    return bool(removed), int(unread)


def summaries(conversation_ids: Sequence[int]) -> list[tuple[list[int], int | None]]:
    """For each conversation: its participants and its newest message id (None when empty). One round
    trip."""
    if not conversation_ids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for cid in conversation_ids:
            pipe.hget(keys.conversation(cid), "participants")
            pipe.zrevrange(keys.conversation_messages(cid), 0, 0)
        replies = pipe.execute()
    found = []
    for index in range(len(conversation_ids)):
        field, newest = replies[2 * index], replies[2 * index + 1]
        people = [int(uid) for uid in field.split(",")] if field else []
        found.append((people, int(newest[0]) if newest else None))
    return found


def messages_page(conversation_id: int, *, before: float | None, count: int) -> list[tuple[int, float]]:
    """A conversation's messages (id, posted), newest first, posted before ``before`` (posted times are
    strictly increasing, so the time of the oldest message shown is an exact cursor). One round trip."""
    highest = "+inf" if before is None else f"({before!r}"
    found = get_redis().zrevrangebyscore(
        keys.conversation_messages(conversation_id), highest, "-inf", start=0, num=count, withscores=True
    )
    return [(int(member), float(score)) for member, score in found]


def is_unread(uid: int, conversation_id: int) -> bool:
    return bool(get_redis().sismember(keys.conversations_unread(uid), conversation_id))


def mark_read(uid: int, conversation_id: int) -> int:
    """Take a conversation out of ``uid``'s unread ones; returns how many stay unread. One round trip."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.srem(keys.conversations_unread(uid), conversation_id)
        pipe.scard(keys.conversations_unread(uid))
        _, unread = pipe.execute()
    return int(unread)


def unread_count(uid: int) -> int:
    return int(get_redis().scard(keys.conversations_unread(uid)))


def sent_page(uid: int, count: int) -> list[int]:
    """The ids of the oldest ``count`` messages ``uid`` sent that are still recorded."""
    return [int(member) for member in get_redis().zrange(keys.messages_sent(uid), 0, count - 1)]


def forget_sent(uid: int, status_ids: Sequence[int]) -> None:
    if status_ids:
        get_redis().zrem(keys.messages_sent(uid), *[str(status_id) for status_id in status_ids])


def all_conversation_ids(uid: int) -> list[int]:
    return [int(cid) for cid in get_redis().zrange(keys.conversations_of(uid), 0, -1)]


def forget_person(uid: int) -> None:
    """Delete a person's list of conversations, unread marks and sent messages (an erased account)."""
    get_redis().delete(keys.conversations_of(uid), keys.conversations_unread(uid), keys.messages_sent(uid))


def last_conversation_id() -> int:
    return int(get_redis().get(keys.CONVERSATION_ID_COUNTER) or 0)


def unread_ids(uid: int) -> set[int]:
    return {int(cid) for cid in get_redis().smembers(keys.conversations_unread(uid))}


def forget_unread(uid: int, conversation_ids: Sequence[int]) -> None:
    if conversation_ids:
        get_redis().srem(keys.conversations_unread(uid), *conversation_ids)


def forget_conversations(uid: int, conversation_ids: Sequence[int]) -> None:
    """Take conversations out of ``uid``'s list and unread marks."""
    if conversation_ids:
        with get_redis().pipeline(transaction=False) as pipe:
            pipe.zrem(keys.conversations_of(uid), *[str(cid) for cid in conversation_ids])
            pipe.srem(keys.conversations_unread(uid), *conversation_ids)
            pipe.execute()


def message_ids(conversation_id: int) -> list[int]:
    """Every message id of a conversation (for the audit)."""
    return [int(member) for member in get_redis().zrange(keys.conversation_messages(conversation_id), 0, -1)]


def remove_ids(conversation_id: int, status_ids: Sequence[int]) -> None:
    if status_ids:
        get_redis().zrem(keys.conversation_messages(conversation_id), *[str(i) for i in status_ids])

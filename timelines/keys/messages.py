"""Keys of direct messages: conversations, one per set of participants (Mastodon's model)::

    conversation:id:              STRING  last conversation id (INCR)
    conversation:ids:             HASH  sorted participant uids joined by "," -> conversation id; the one place
                                  that says which conversation a set of people talks in
                                  > HGET conversation:ids: 7,42
                                  3
    conversation:{3}              HASH  ``participants`` -> "7,42" (who may read conversation 3)
    conversation:messages:{3}     ZSET  status id -> posted; the messages of conversation 3
                                  > ZREVRANGE conversation:messages:{3} 0 0
                                  9001
    conversations:{42}            ZSET  conversation id -> posted of its last message; user 42's conversations
    conversations:unread:{42}     SET   the conversations of user 42 holding a message they have not read
    messages:sent:{42}            ZSET  status id -> posted; the direct messages user 42 wrote (an account's
                                  erasure finds them here: they are on no profile)

A conversation's two keys share its slot, a person's three keys theirs.
"""

from __future__ import annotations

CONVERSATION_ID_COUNTER = "conversation:id:"
CONVERSATION_IDS = "conversation:ids:"


def conversation(conversation_id: int | str) -> str:
    return f"conversation:{{{conversation_id}}}"


def conversation_messages(conversation_id: int | str) -> str:
    return f"conversation:messages:{{{conversation_id}}}"


def conversations_of(uid: int | str) -> str:
    return f"conversations:{{{uid}}}"


def conversations_unread(uid: int | str) -> str:
    return f"conversations:unread:{{{uid}}}"


def messages_sent(uid: int | str) -> str:
    return f"messages:sent:{{{uid}}}"

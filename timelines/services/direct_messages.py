"""Direct messages (Mastodon's model): a post of visibility ``direct`` is a message, and the people it reaches
(its author and everyone it mentions) talk in one conversation per set of participants.

This module owns the conversations' bookkeeping (``store.messages``): who may be messaged, the conversation a
new message goes to (written by the delivery of the post, ``services.delivery``), each participant's list of
conversations and unread marks, reading a conversation, and what a deleted message or an erased account leaves
behind. Every participant's open pages learn of a new message (``message.created``, with their number of unread
conversations), of an edit of one of its messages (``message.updated``) and of a read or a deletion
(``messages.changed``).

The rules: a block either way stands between two people (``CannotMessage``: "You cannot message @login"), a
private account can be messaged only by the people it follows (and answered in a conversation it is part of:
one it started, or one someone it follows started), and a message reaches at most
``limits.MAX_MESSAGE_PARTICIPANTS`` people, its author included (``TooManyRecipients``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from timelines import events, exceptions, limits, store
from timelines import visibility as visibilities
from timelines.services.publishing import publish


def participants_of(status: Mapping[str, Any]) -> list[int]:
    """The people of a direct message's conversation: its author and everyone it mentions, sorted."""
    return sorted(visibilities.mentioned_uids(status) | {int(status["uid"])})


def check_recipients(*, author: int, recipients: Sequence[int], logins: Mapping[int, str]) -> None:
    """Refuse a message from ``author`` to ``recipients`` (uids, the author left out) before anything is
    written: more than ``MAX_MESSAGE_PARTICIPANTS`` people with the author, a block either way, or a private
    account that does not follow the author, unless these people already talk (an answer in a conversation
    the private account is part of). ``logins``: each recipient's login, for the error. At most three round
    trips."""
    if len(recipients) + 1 > limits.MAX_MESSAGE_PARTICIPANTS:
        raise exceptions.TooManyRecipients()
    if not recipients:
        return
    relations = store.privacy.relations(list(recipients), [author])
    hashes = store.users.get_users(list(recipients))
    talking: bool | None = None  # read once, only when a private account asks for it
    for recipient, fields in zip(recipients, hashes, strict=True):
        if (recipient, author) in relations.blocked:
            raise exceptions.CannotMessage(logins.get(recipient))
        # A private account hears only from the people it follows ((recipient, author) is "recipient follows").
        if fields.get("private") and (recipient, author) not in relations.follows:
            if talking is None:
                talking = store.messages.find_conversation([author, *recipients]) is not None
            if not talking:
                raise exceptions.CannotMessage(logins.get(recipient))


def deliver_message(status: Mapping[str, Any]) -> int:
    """Put a new direct message in its participants' conversation (made when it is their first), mark it
    unread for all but its author, and tell each participant's pages. Returns the conversation id. Called by
    the delivery of the post; idempotent but for the events."""
    people = participants_of(status)
    author, status_id = int(status["uid"]), int(status["id"])
    conversation_id = store.messages.conversation_id(people)
    unread = store.messages.add_message(conversation_id, people, author, status_id, float(status["posted"]))
    for uid in people:
        publish(events.message_created(uid=uid, conversation=conversation_id, unread=unread[uid], status=dict(status)))
    return conversation_id


def conversation_of(status: Mapping[str, Any]) -> int | None:
    """The id of the conversation a direct message went to, None when there is none (never delivered)."""
    people = participants_of(status)
    return store.messages.find_conversation(people)


def message_edited(status: Mapping[str, Any]) -> None:
    """Tell each participant's pages that a message of their conversation was edited (``status`` as stored after
    the edit, typed as events carry it): an open conversation swaps it in where it shows it. The participants are
    the conversation's, as stored: an edit naming someone new reaches nobody new. Nothing when the message is
    in no conversation (never delivered). Two round trips."""
    conversation_id = conversation_of(status)
    if conversation_id is None:
        return
    for uid in store.messages.participants(conversation_id):
        publish(events.message_updated(uid=uid, conversation=conversation_id, status=dict(status)))


def forget_message(fields: Mapping[str, Any]) -> None:
    """Take a deleted direct message out of its conversation (the conversation leaves everyone's list with its
    last message) and tell the participants' pages. Idempotent."""
    if visibilities.of_status(fields) != visibilities.DIRECT or fields.get("repost_of"):
        return
    conversation_id = conversation_of(fields)
    if conversation_id is None:
        return
    status_id = int(fields["id"])
    _, newest = store.messages.remove_message(conversation_id, int(fields["uid"]), status_id)
    people = store.messages.participants(conversation_id)
    unread = store.messages.set_last(conversation_id, people, newest)
    for uid, count in unread.items():
        publish(events.messages_changed(uid=uid, unread=count, removed=status_id))


def participants_or_refuse(*, uid: int, conversation_id: int) -> list[int]:
    """The participants of a conversation ``uid`` is part of; ``ConversationNotFound`` otherwise (a missing
    conversation and someone else's look alike)."""
    people = store.messages.participants(conversation_id) if 0 < conversation_id < limits.MAX_ID else []
    if uid not in people:
        raise exceptions.ConversationNotFound()
    return people


def mark_conversation_read(*, uid: int, conversation_id: int) -> int:
    """Mark conversation ``conversation_id`` read for ``uid`` (opening it does this); returns how many of
    ``uid``'s conversations stay unread, which their open pages are told. Raises ``ConversationNotFound``."""
    participants_or_refuse(uid=uid, conversation_id=conversation_id)
    unread = store.messages.mark_read(uid, conversation_id)
    publish(events.messages_changed(uid=uid, unread=unread, read=conversation_id))
    return unread


def remove_conversation(*, uid: int, conversation_id: int) -> bool:
    """Take conversation ``conversation_id`` out of ``uid``'s list (Mastodon's "remove conversation"): nobody
    else's list changes, and its next message brings it back, unread. True when it was listed. Their open pages
    learn the new unread count. Raises ``ConversationNotFound``."""
    participants_or_refuse(uid=uid, conversation_id=conversation_id)
    removed, unread = store.messages.unlist(uid, conversation_id)
    if removed:
        publish(events.messages_changed(uid=uid, unread=unread))
    return removed


def leave_all(*, uid: int) -> None:
    """An erased account's side of its conversations: out of their lists (its messages were deleted)."""
    store.messages.forget_person(uid)

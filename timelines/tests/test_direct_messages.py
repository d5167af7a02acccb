"""Direct messages (issue 19): conversations per set of participants, unread marks, the rules (blocks, private
accounts, 20 recipients), deletion and erasure, through the services and selectors."""

from __future__ import annotations

import json

import pytest

from socialsite.redis_client import get_redis
from timelines import events, exceptions, keys, limits, selectors, services, store
from timelines.services.erasure import delete_account
from timelines.tests.helpers import next_message, run_worker_burst

pytestmark = pytest.mark.django_db


def messages_of(conversation) -> list[str]:
    return [entry.status.message for entry in conversation.messages]


def test_a_message_starts_one_conversation_per_set_of_participants(alice, bob, carol):
    first = services.post_status(uid=alice, message="@bob hello", visibility="direct")
    services.post_status(uid=bob, message="@alice hi back", visibility="direct")
    services.post_status(uid=alice, message="@bob @carol all of us", visibility="direct")
    alices = selectors.get_conversations(uid=alice)
    assert [[person.login for person in summary.others] for summary in alices] == [["bob", "carol"], ["bob"]]
    two = alices[1]
    assert two.last is not None and two.last.status.message == "@alice hi back"
    assert two.unread is True and alices[0].unread is False  # alice wrote the last one of the three of them
    conversation = selectors.get_conversation(uid=bob, conversation_id=two.id)
    assert messages_of(conversation) == ["@alice hi back", "@bob hello"]  # newest first
    assert selectors.get_status(status_id=first, viewer_uid=bob).visibility == "direct"
    assert [summary.id for summary in selectors.get_conversations(uid=carol)] == [alices[0].id]


def test_sending_in_a_conversation_reaches_its_people_without_naming_them(alice, bob, carol):
    _, conversation_id = services.send_message(uid=alice, message="no names here", to=(bob, carol))
    status_id, again = services.send_message(uid=bob, message="still none", conversation_id=conversation_id)
    assert again == conversation_id
    assert messages_of(selectors.get_conversation(uid=carol, conversation_id=conversation_id)) == [
        "still none",
        "no names here",
    ]
    mentioned = [n.status.id for n in selectors.get_notifications(uid=carol) if n.kind == "mention"]
    assert status_id in mentioned


def test_unread_conversations_are_counted_and_read_once_opened(alice, bob, carol):
    services.send_message(uid=alice, message="one", to=(bob,))
    _, group = services.send_message(uid=carol, message="two", to=(bob, alice))
    assert selectors.get_unread_conversations(uid=bob) == 2
    assert selectors.get_header_counts(uid=bob).unread_conversations == 2
    assert services.mark_conversation_read(uid=bob, conversation_id=group) == 1
    assert [summary.unread for summary in selectors.get_conversations(uid=bob)] == [False, True]
    services.send_message(uid=alice, message="three", conversation_id=group)
    assert selectors.get_unread_conversations(uid=bob) == 2


def test_nobody_outside_a_conversation_can_read_or_mark_it(alice, bob, carol):
    _, conversation_id = services.send_message(uid=alice, message="secret", to=(bob,))
    for missing in (conversation_id, conversation_id + 1, 0, -1, limits.MAX_ID):
        with pytest.raises(exceptions.ConversationNotFound):
            selectors.get_conversation(uid=carol, conversation_id=missing)
        with pytest.raises(exceptions.ConversationNotFound):
            services.mark_conversation_read(uid=carol, conversation_id=missing)
        with pytest.raises(exceptions.ConversationNotFound):
            services.send_message(uid=carol, message="let me in", conversation_id=missing)
    assert selectors.get_conversations(uid=carol) == []


def test_blocks_stand_between_people_both_ways(alice, bob, carol):
    services.block_user(uid=bob, other_uid=alice)
    for sender, receiver, login in ((alice, bob, "bob"), (bob, alice, "alice")):
        with pytest.raises(exceptions.CannotMessage) as refused:
            services.send_message(uid=sender, message="hey", to=(receiver,))
        assert refused.value.message == f"You cannot message @{login}."
    with pytest.raises(exceptions.CannotMessage):
        services.post_status(uid=alice, message="@carol @bob hey", visibility="direct")
    assert selectors.get_conversations(uid=alice) == [] and selectors.get_conversations(uid=bob) == []


def test_a_private_account_hears_only_from_the_people_it_follows(alice, bob, carol):
    services.set_private(uid=bob, private=True)
    with pytest.raises(exceptions.CannotMessage) as refused:
        services.send_message(uid=alice, message="hello?", to=(bob,))
    assert refused.value.message == "You cannot message @bob."
    services.follow_user(uid=bob, other_uid=alice)
    services.send_message(uid=alice, message="hello!", to=(bob,))
    assert [summary.last.status.message for summary in selectors.get_conversations(uid=bob)] == ["hello!"]
    # bob himself (private) may message carol, a public account that does not follow him, and she may answer.
    _, with_carol = services.send_message(uid=bob, message="hi carol", to=(carol,))
    services.send_message(uid=carol, message="hi bob", conversation_id=with_carol)
    with pytest.raises(exceptions.CannotMessage):
        services.send_message(uid=carol, message="and alice", to=(bob, alice))  # a new conversation


def test_a_conversation_has_at_most_20_participants(alice, make_user):
    """Up to 20 participants, the author included: a message to 21 people (or 20) is refused, before anything
    is written."""
    crowd = [make_user() for _ in range(21)]
    before = store.statuses.next_status_id()[0]
    for too_many in (crowd, crowd[:20]):
        with pytest.raises(exceptions.TooManyRecipients):
            services.send_message(uid=alice, message="everyone", to=tuple(too_many))
    assert selectors.get_conversations(uid=alice) == []
    assert not store.statuses.status_exists(before + 1)
    _, conversation_id = services.send_message(uid=alice, message="twenty of us", to=tuple(crowd[:19]))
    assert len(selectors.get_conversation(uid=alice, conversation_id=conversation_id).others) == 19


def test_deleting_a_message_takes_it_out_of_its_conversation(alice, bob):
    first, conversation_id = services.send_message(uid=alice, message="first", to=(bob,))
    second, _ = services.send_message(uid=alice, message="second", conversation_id=conversation_id)
    services.delete_status(uid=alice, status_id=second)
    assert messages_of(selectors.get_conversation(uid=bob, conversation_id=conversation_id)) == ["first"]
    assert selectors.get_conversations(uid=bob)[0].last.status.message == "first"
    services.delete_status(uid=alice, status_id=first)
    assert selectors.get_conversations(uid=bob) == [] and selectors.get_conversations(uid=alice) == []
    assert selectors.get_unread_conversations(uid=bob) == 0


def test_an_erased_account_leaves_no_message_behind(alice, bob):
    _, conversation_id = services.send_message(uid=alice, message="mine", to=(bob,))
    services.send_message(uid=bob, message="his", conversation_id=conversation_id)
    delete_account(uid=alice)
    run_worker_burst()
    conversation = selectors.get_conversation(uid=bob, conversation_id=conversation_id)
    assert messages_of(conversation) == ["his"] and conversation.others == []
    client = get_redis()
    assert not client.exists(keys.conversations_of(alice), keys.conversations_unread(alice), keys.messages_sent(alice))
    # bob can still answer there: nobody is left to reach, which is a plain refusal, not a failure.
    with pytest.raises(exceptions.InvalidVisibility):
        services.send_message(uid=bob, message="anyone?", conversation_id=conversation_id)


def test_each_participant_is_told_of_a_new_message_and_of_a_read(alice, bob):
    pubsub = get_redis().pubsub()
    pubsub.subscribe(keys.STREAM_CHANNEL)
    try:
        services.send_message(uid=alice, message="ping", to=(bob,))
        created: dict[int, dict] = {}
        while len(created) < 2:
            message = next_message(pubsub)
            assert message is not None
            event = json.loads(message["data"])
            if event["type"] == events.MESSAGE_CREATED:
                created[event["uid"]] = event
        assert created[bob]["unread"] == 1 and created[alice]["unread"] == 0
        assert created[bob]["status"]["message"] == "ping"
        services.mark_conversation_read(uid=bob, conversation_id=created[bob]["conversation"])
        while True:
            message = next_message(pubsub)
            assert message is not None
            event = json.loads(message["data"])
            if event["type"] == events.MESSAGES_CHANGED:
                conversation = created[bob]["conversation"]
                assert event == {"type": events.MESSAGES_CHANGED, "v": 1, "uid": bob, "unread": 0, "read": conversation}
                break
    finally:
        pubsub.close()


def test_removing_a_conversation_takes_it_out_of_ones_own_list_until_the_next_message(alice, bob):
    _, conversation_id = services.send_message(uid=alice, message="first", to=(bob,))
    assert services.remove_conversation(uid=bob, conversation_id=conversation_id) is True
    assert services.remove_conversation(uid=bob, conversation_id=conversation_id) is False
    assert selectors.get_conversations(uid=bob) == [] and selectors.get_unread_conversations(uid=bob) == 0
    assert [c.id for c in selectors.get_conversations(uid=alice)] == [conversation_id]
    with pytest.raises(exceptions.ConversationNotFound):
        selectors.get_conversation_summary(uid=bob, conversation_id=conversation_id)
    # Still his to read and answer: only his list changed.
    assert selectors.get_conversation(uid=bob, conversation_id=conversation_id).messages
    services.send_message(uid=alice, message="again", conversation_id=conversation_id)
    summary = selectors.get_conversation_summary(uid=bob, conversation_id=conversation_id)
    assert summary.unread and summary.last is not None and summary.last.status.message == "again"


def test_someone_elses_conversation_cannot_be_removed(alice, bob, carol):
    _, conversation_id = services.send_message(uid=alice, message="private", to=(bob,))
    with pytest.raises(exceptions.ConversationNotFound):
        services.remove_conversation(uid=carol, conversation_id=conversation_id)
    with pytest.raises(exceptions.ConversationNotFound):
        selectors.get_conversation_summary(uid=carol, conversation_id=conversation_id)
    assert [c.id for c in selectors.get_conversations(uid=bob)] == [conversation_id]

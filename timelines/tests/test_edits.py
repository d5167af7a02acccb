"""Editing a post (issue 19's edits): the service, the history selector, and what follows the new text."""

from __future__ import annotations

import json

import pytest

from socialsite.redis_client import get_redis
from timelines import events, exceptions, keys, limits, selectors, services
from timelines.tests.helpers import next_message


def kinds_of(uid: int) -> list[str]:
    return [item.kind for item in selectors.get_notifications(uid=uid)]


def test_an_edit_replaces_the_text_and_keeps_every_version_newest_first(alice):
    status_id = services.post_status(uid=alice, message="helo world")
    posted = selectors.get_status(status_id=status_id).posted

    assert services.edit_status(uid=alice, status_id=status_id, message="hello world") is True

    status = selectors.get_status(status_id=status_id)
    assert status.message == "hello world"
    assert status.edits == 1 and status.edited_at is not None and status.edited_at > posted
    history = selectors.get_status_history(status_id=status_id)
    assert [(version.message, version.current) for version in history] == [
        ("hello world", True),
        ("helo world", False),
    ]
    assert history[0].time == status.edited_at and history[1].time == posted


def test_the_same_text_again_is_not_a_new_version(alice):
    status_id = services.post_status(uid=alice, message="hello")
    assert services.edit_status(uid=alice, status_id=status_id, message="hello") is False
    assert selectors.get_status(status_id=status_id).edited_at is None
    assert len(selectors.get_status_history(status_id=status_id)) == 1


def test_counts_replies_reposts_and_visibility_stay(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    status_id = services.post_status(uid=alice, message="a post", visibility="unlisted")
    services.like_status(uid=bob, status_id=status_id)
    services.repost_status(uid=bob, status_id=status_id)
    reply = services.post_status(uid=bob, message="@alice nice", in_reply_to=status_id, visibility="unlisted")

    services.edit_status(uid=alice, status_id=status_id, message="a better post")

    status = selectors.get_status(status_id=status_id)
    assert (status.like_count, status.repost_count, status.reply_count) == (1, 1, 1)
    assert status.visibility == "unlisted"
    thread = selectors.get_thread(status_id=status_id, viewer_uid=bob)
    assert [item.entry.status.id for item in thread.descendants] == [reply]


def test_a_page_read_before_the_edit_does_not_serve_the_old_text_after_it(alice, bob):
    """The per-process status cache and the rendered fragments are keyed by the status's version."""
    services.follow_user(uid=bob, other_uid=alice)
    status_id = services.post_status(uid=alice, message="first words")
    assert selectors.get_status_messages(uid=bob, timeline="home")[0].message == "first words"

    services.edit_status(uid=alice, status_id=status_id, message="second words")

    entry = selectors.get_status_messages(uid=bob, timeline="home")[0]
    assert (entry.message, entry.status.edits) == ("second words", 1)


def test_mentions_tags_and_search_follow_the_new_text(alice, bob):
    status_id = services.post_status(uid=alice, message="learning #redis today")
    assert [e.id for e in selectors.get_tag_timeline(tag="redis")] == [status_id]

    services.edit_status(uid=alice, status_id=status_id, message="learning #valkey today with @bob")

    assert selectors.get_tag_timeline(tag="redis") == []
    assert [e.id for e in selectors.get_tag_timeline(tag="valkey")] == [status_id]
    assert [e.id for e in selectors.search(query="valkey").statuses] == [status_id]
    assert selectors.search(query="redis").statuses == ()
    status = selectors.get_status(status_id=status_id)
    assert (status.mentions, status.tags) == ((bob,), ("valkey",))
    assert kinds_of(bob) == ["mention"]


def test_only_people_mentioned_for_the_first_time_are_notified(alice, bob, carol):
    status_id = services.post_status(uid=alice, message="hi @bob")
    services.edit_status(uid=alice, status_id=status_id, message="hi @bob and @carol")
    assert kinds_of(bob) == ["mention"]
    assert kinds_of(carol) == ["mention"]


def test_everyone_who_reposted_it_is_told_it_was_edited(alice, bob, carol):
    status_id = services.post_status(uid=alice, message="a post")
    services.repost_status(uid=bob, status_id=status_id)
    services.repost_status(uid=carol, status_id=status_id)

    services.edit_status(uid=alice, status_id=status_id, message="an edited post")

    for reposter in (bob, carol):
        notification = selectors.get_notifications(uid=reposter)[0]
        assert (notification.kind, notification.actor.id, notification.status.id) == ("update", alice, status_id)
    assert "update" not in kinds_of(alice)


def test_an_edit_publishes_the_status_again_with_edited_at(alice):
    status_id = services.post_status(uid=alice, message="before")
    pubsub = get_redis().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(keys.STREAM_CHANNEL)
    try:
        services.edit_status(uid=alice, status_id=status_id, message="after")
        found = None
        while found is None:
            message = next_message(pubsub)
            assert message is not None, "no status.updated event"
            event = json.loads(message["data"])
            if event["type"] == events.STATUS_UPDATED:
                found = event
    finally:
        pubsub.close()
    assert found["status"]["id"] == status_id
    assert found["status"]["message"] == "after"
    assert isinstance(found["status"]["edited_at"], float) and found["status"]["edits"] == 1


def test_only_the_author_can_edit_and_nothing_is_written_otherwise(alice, bob):
    status_id = services.post_status(uid=alice, message="mine")
    with pytest.raises(exceptions.NotOwner) as refused:
        services.edit_status(uid=bob, status_id=status_id, message="yours now")
    assert refused.value.message == exceptions.NOT_EDIT_OWNER
    assert selectors.get_status(status_id=status_id).message == "mine"
    assert not get_redis().exists(keys.status_versions(status_id))


def test_a_missing_post_or_a_repost_cannot_be_edited(alice, bob):
    with pytest.raises(exceptions.StatusNotFound):
        services.edit_status(uid=alice, status_id=987654, message="nothing here")
    original = services.post_status(uid=alice, message="original")
    services.repost_status(uid=bob, status_id=original)
    repost = selectors.get_status_messages(uid=bob, timeline="profile")[0].repost_id
    with pytest.raises(exceptions.StatusNotFound):
        services.edit_status(uid=bob, status_id=repost, message="my words")


@pytest.mark.parametrize(
    ("message", "error"),
    [("", exceptions.EMPTY_MESSAGE), ("   ", exceptions.EMPTY_MESSAGE), ("x" * 281, exceptions.MESSAGE_TOO_LONG)],
)
def test_empty_or_overlong_edits_are_refused_and_nothing_is_written(alice, message, error):
    status_id = services.post_status(uid=alice, message="fine")
    with pytest.raises(exceptions.InvalidMessage) as refused:
        services.edit_status(uid=alice, status_id=status_id, message=message)
    assert refused.value.message == error
    assert selectors.get_status(status_id=status_id).message == "fine"
    assert len(selectors.get_status_history(status_id=status_id)) == 1


def test_the_edit_that_would_make_the_101st_version_is_refused(alice):
    status_id = services.post_status(uid=alice, message="version 1")
    for number in range(2, limits.MAX_STATUS_VERSIONS + 1):
        services.edit_status(uid=alice, status_id=status_id, message=f"version {number}")
    with pytest.raises(exceptions.TooManyVersions):
        services.edit_status(uid=alice, status_id=status_id, message="version 101")
    history = selectors.get_status_history(status_id=status_id)
    assert len(history) == limits.MAX_STATUS_VERSIONS
    assert (history[0].message, history[-1].message) == ("version 100", "version 1")


def test_deleting_an_edited_post_deletes_its_versions(alice):
    status_id = services.post_status(uid=alice, message="one")
    services.edit_status(uid=alice, status_id=status_id, message="two")
    services.delete_status(uid=alice, status_id=status_id)
    assert not get_redis().exists(keys.status_versions(status_id))
    with pytest.raises(exceptions.StatusNotFound):
        selectors.get_status_history(status_id=status_id)


def test_a_direct_message_can_be_edited_and_keeps_its_people(alice, bob, carol):
    status_id = services.post_status(uid=alice, message="@bob psst", visibility="direct")
    services.edit_status(uid=alice, status_id=status_id, message="@bob psst, and @carol")
    status = selectors.get_status(status_id=status_id)
    assert (status.message, status.visibility, status.mentions) == ("@bob psst, and @carol", "direct", (bob,))
    assert "mention" not in kinds_of(carol)
    with pytest.raises(exceptions.StatusNotFound):
        selectors.get_status_history(status_id=status_id, viewer_uid=carol)


def test_the_history_of_a_followers_only_post_is_for_followers(alice, bob, carol):
    services.follow_user(uid=bob, other_uid=alice)
    status_id = services.post_status(uid=alice, message="Followers only", visibility="private")
    services.edit_status(uid=alice, status_id=status_id, message="Followers only, edited")

    assert len(selectors.get_status_history(status_id=status_id, viewer_uid=bob)) == 2
    for outsider in (carol, None):
        with pytest.raises(exceptions.StatusNotFound):
            selectors.get_status_history(status_id=status_id, viewer_uid=outsider)

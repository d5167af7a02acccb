"""What the delivery publishes (issue 19): each pass, inline or as a job, one ``timeline.delivery`` event naming the
homes and lists it wrote; each withdrawal pass one naming those that held the status; bulk changes a ``reset``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from socialsite.redis_client import get_redis
from timelines import events, keys, limits, queue, services
from timelines.tests.helpers import next_message
from timelines.worker import Worker


@pytest.fixture
def deliveries() -> Iterator[Any]:
    pubsub = get_redis().pubsub()
    pubsub.subscribe(keys.STREAM_CHANNEL)
    yield pubsub
    pubsub.close()


def delivered(pubsub: Any, kind: str, *, until: int) -> list[dict[str, Any]]:
    """The delivery events of ``kind`` published before the event of ``until`` (a status.created or .deleted
    event of that status id), in order."""
    found = []
    while True:
        message = next_message(pubsub)
        assert message is not None, f"no event of status {until} came"
        event = json.loads(message["data"])
        if event["type"] == events.TIMELINE_DELIVERY and event["kind"] == kind:
            found.append(event)
        elif event["type"] in events.STATUS_TYPES and event["status"]["id"] == until:
            return found


def run_jobs() -> None:
    jobs = queue.get_queue()
    Worker([jobs], connection=jobs.connection).work(burst=True)


@pytest.fixture
def audience(alice: int, bob: int, carol: int, make_user: Any) -> dict[str, int]:
    """alice's followers bob, carol and dave (who mutes her, so her posts never reach his home), and erin's list,
    which holds alice."""
    dave, erin = make_user("dave"), make_user("erin")
    for follower in (bob, carol, dave):
        services.follow_user(uid=follower, other_uid=alice)
    services.mute_user(uid=dave, other_uid=alice)
    list_id = services.create_user_list(uid=erin, name="writers")
    services.follow_user_list(uid=erin, other_uid=alice, list_id=list_id)
    return {"alice": alice, "bob": bob, "carol": carol, "dave": dave, "list": list_id}


def test_the_inline_pass_names_the_author_the_followers_it_wrote_and_the_lists(deliveries, audience):
    status_id = services.post_status(uid=audience["alice"], message="hello")
    [homes, lists] = delivered(deliveries, events.POST, until=status_id)
    assert homes["homes"] == [audience["alice"], audience["bob"], audience["carol"]]  # not dave: he mutes her
    assert homes["lists"] == [] and homes["status"]["message"] == "hello"
    assert lists["homes"] == [] and lists["lists"] == [audience["list"]]


def test_job_passes_publish_what_they_wrote_and_withdrawals_name_only_the_timelines_that_held_it(
    deliveries, audience, monkeypatch
):
    monkeypatch.setattr(limits, "POSTS_PER_PASS", 1)
    monkeypatch.setattr(limits, "DELIVERY_JOB_SIZE", 1)
    status_id = services.post_status(uid=audience["alice"], message="in passes of one")
    inline = delivered(deliveries, events.POST, until=status_id)
    assert [(event["homes"], event["lists"]) for event in inline] == [
        ([audience["alice"], audience["bob"]], []),
        ([], [audience["list"]]),
    ]
    run_jobs()
    marker = services.post_status(uid=audience["bob"], message="after the jobs")
    later = delivered(deliveries, events.POST, until=marker)
    # carol's by a job (dave mutes alice), and bob's own home for his marker.
    assert sorted(uid for event in later for uid in event["homes"]) == sorted([audience["carol"], audience["bob"]])

    services.delete_status(uid=audience["alice"], status_id=status_id)
    withdrawn = delivered(deliveries, events.DELETE, until=status_id)
    run_jobs()
    marker = services.post_status(uid=audience["bob"], message="after the withdrawal")
    withdrawn += delivered(deliveries, events.DELETE, until=marker)
    assert sorted(uid for event in withdrawn for uid in event["homes"]) == sorted(
        [audience["alice"], audience["bob"], audience["carol"]]
    )  # not dave, whose home never held it
    assert [list_id for event in withdrawn for list_id in event["lists"]] == [audience["list"]]
    assert all(event["status"] == {"id": status_id, "uid": audience["alice"]} for event in withdrawn)


def test_a_follow_resets_the_followers_home(deliveries, alice, bob):
    status_id = services.post_status(uid=bob, message="before the follow")
    delivered(deliveries, events.POST, until=status_id)
    services.follow_user(uid=alice, other_uid=bob)
    marker = services.post_status(uid=bob, message="after it")
    resets = delivered(deliveries, events.RESET, until=marker)
    assert resets == [{"type": events.TIMELINE_DELIVERY, "v": 1, "kind": "reset", "homes": [alice], "lists": []}]


@pytest.mark.parametrize("homes", [["1,2"], [""], ["-3"], [1.5], ["٣"]])
def test_a_delivery_event_names_whole_numbers_only(homes):
    with pytest.raises(ValueError):
        events.delivered(events.POST, homes=homes, status={"id": 1, "uid": 1})
    with pytest.raises(ValueError):
        events.delivered("teleported", homes=[1], status={"id": 1, "uid": 1})


def test_an_edit_is_no_delivery_and_an_edited_message_goes_to_its_conversation_only(deliveries, audience, carol):
    """An edit writes no timeline: it publishes ``status.updated`` and no delivery event (the ``update`` kind is
    gone); an edited direct message publishes ``message.updated`` to each participant, and no ``status.updated``."""
    alice, bob = audience["alice"], audience["bob"]
    with pytest.raises(ValueError):
        events.delivered("update", homes=[bob], status={"id": 1, "uid": alice})
    status_id = services.post_status(uid=alice, message="a post")
    message_id, conversation = services.send_message(uid=alice, message="a message", to=(bob,))
    marker = services.post_status(uid=alice, message="marker")
    delivered(deliveries, events.POST, until=marker)
    services.edit_status(uid=alice, status_id=status_id, message="a post, edited")
    services.edit_status(uid=alice, status_id=message_id, message="a message, edited")
    marker = services.post_status(uid=alice, message="second marker")
    seen = []
    while True:
        event = json.loads(next_message(deliveries)["data"])
        if event["type"] == events.STATUS_CREATED and event["status"]["id"] == marker:
            break
        if event.get("status", {}).get("id") == marker:
            continue  # the marker's own deliveries
        if event["type"] in (events.STATUS_UPDATED, events.MESSAGE_UPDATED, events.TIMELINE_DELIVERY):
            seen.append((event["type"], event.get("uid"), event.get("conversation"), event.get("status", {}).get("id")))
    assert seen == [
        (events.STATUS_UPDATED, None, None, status_id),
        (events.MESSAGE_UPDATED, alice, conversation, message_id),
        (events.MESSAGE_UPDATED, bob, conversation, message_id),
    ]

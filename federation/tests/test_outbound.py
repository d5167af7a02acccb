"""The remote audience: one delivery per inbox, shared inboxes once, the same policy as local delivery (step 4)."""

from __future__ import annotations

import time

import pytest

from federation import contexts, keys, store
from federation.services import outbound, remote_statuses
from federation.tests.helpers import post_signed, queued_jobs, remote_actor, run_queued
from timelines import services, uris


def _object_type(obj: object) -> str:
    """The type of an activity's object; "uri" when the object is only named (a Block names an actor)."""
    return obj.get("type", "") if isinstance(obj, dict) else "uri"


def _deliveries() -> list[tuple[str, str, str]]:
    return sorted(
        (job.kwargs["inbox"], job.kwargs["activity"]["type"], _object_type(job.kwargs["activity"].get("object", {})))
        for job in queued_jobs()
        if job.func_name == "federation.tasks.deliver"
    )


def _remote_follow(alice, remote) -> None:
    services.follow_user(uid=remote.actor.uid, other_uid=alice.uid)
    store.add_remote_follower(alice.uid, remote.actor.uid, 1.0, inbox=remote.actor.delivery_inbox)


@pytest.fixture
def followers(db, alice):
    rob, rita, otto = remote_actor("rob"), remote_actor("rita"), remote_actor("otto", "other.example")
    for remote in (rob, rita, otto):
        _remote_follow(alice, remote)
    return rob, rita, otto


def test_a_post_goes_once_to_each_server_of_its_remote_followers(alice, followers):
    status_id = services.post_status(uid=alice.uid, message="hello fediverse")
    fanout = [job for job in queued_jobs() if job.func_name == "federation.tasks.fan_out"]
    assert [job.kwargs["status_id"] for job in fanout] == [status_id]
    assert outbound.fan_out(status_id=status_id, uid=alice.uid) == 2
    assert _deliveries() == [
        ("https://other.example/inbox", "Create", "Note"),
        ("https://remote.example/inbox", "Create", "Note"),
    ]
    # A fan-out run again queues nothing new (one job per activity and inbox).
    outbound.fan_out(status_id=status_id, uid=alice.uid)
    assert len(_deliveries()) == 2


def test_followers_only_posts_reach_only_remote_followers_the_policy_admits(alice, followers):
    otto = followers[2]
    services.block_user(uid=alice.uid, other_uid=otto.actor.uid)  # ends otto's follow
    # The block itself goes to otto's server (issue 22), and nothing else does.
    assert _deliveries() == [(otto.actor.inbox, "Block", "uri")]
    status_id = services.post_status(uid=alice.uid, message="just for you", visibility="private")
    assert outbound.fan_out(status_id=status_id, uid=alice.uid) == 1
    assert [sent for sent in _deliveries() if sent[1] != "Block"] == [
        ("https://remote.example/inbox", "Create", "Note")
    ]


def test_direct_posts_do_not_federate_and_deletions_do(alice, followers, make_account):
    make_account("bob")
    services.post_status(uid=alice.uid, message="@bob psst", visibility="direct")
    assert not [job for job in queued_jobs() if job.func_name == "federation.tasks.fan_out"]

    status_id = services.post_status(uid=alice.uid, message="soon gone")
    services.delete_status(uid=alice.uid, status_id=status_id)
    fanouts = [job for job in queued_jobs() if job.func_name == "federation.tasks.fan_out"]
    assert [job.kwargs["deleted"] is not None for job in fanouts] == [False, True]
    fanouts[1].perform()
    assert ("https://remote.example/inbox", "Delete", "Tombstone") in _deliveries()


def test_a_repost_goes_out_as_announce_and_its_undoing_as_undo(alice, followers, make_account):
    bob = make_account("bob")
    original = services.post_status(uid=bob.uid, message="worth sharing")
    services.repost_status(uid=alice.uid, status_id=original)
    (announce,) = [job for job in queued_jobs() if job.func_name == "federation.tasks.fan_out"]
    announce.perform()
    services.undo_repost(uid=alice.uid, status_id=original)
    (undo,) = [job for job in queued_jobs() if job.func_name == "federation.tasks.fan_out" and job.kwargs["deleted"]]
    undo.perform()
    sent = [job.kwargs["activity"] for job in queued_jobs() if job.func_name == "federation.tasks.deliver"]
    announces = [activity for activity in sent if activity["type"] == "Announce"]
    undos = [activity for activity in sent if activity["type"] == "Undo"]
    assert len(announces) == 2 and len(undos) == 2  # one per server
    assert announces[0]["object"] == uris.status_uri("bob", original)
    assert announces[0]["to"] == [contexts.PUBLIC] and uris.account_uri("bob") in announces[0]["cc"]
    assert undos[0]["object"]["id"] == announces[0]["id"]


def test_an_edit_goes_out_as_an_update_of_the_note(alice, followers):
    status_id = services.post_status(uid=alice.uid, message="frist")
    services.edit_status(uid=alice.uid, status_id=status_id, message="first")
    update = [job for job in queued_jobs() if job.func_name == "federation.tasks.fan_out" and job.kwargs["version"]]
    assert len(update) == 1
    update[0].perform()
    sent = [
        job.kwargs["activity"]
        for job in queued_jobs()
        if job.func_name == "federation.tasks.deliver" and job.kwargs["activity"]["type"] == "Update"
    ]
    assert len(sent) == 2  # remote.example's shared inbox and other.example's
    assert sent[0]["object"]["source"]["content"] == "first" and "updated" in sent[0]["object"]


def test_a_reply_to_another_servers_post_reaches_its_author_and_tags_them(db, alice):
    rob = remote_actor("rob")
    note = {
        "id": f"{rob.uri}/statuses/1",
        "type": "Note",
        "attributedTo": rob.uri,
        "content": "<p>hi</p>",
        "to": ["https://www.w3.org/ns/activitystreams#Public"],
    }
    parent = remote_statuses.store_note(note=note, author=rob.actor)
    reply = services.post_status(uid=alice.uid, message="hello rob", in_reply_to=parent)
    fanout = [job for job in queued_jobs() if job.func_name == "federation.tasks.fan_out"]
    assert [job.kwargs["status_id"] for job in fanout] == [reply]  # alice has no remote followers
    fanout[0].perform()
    (sent,) = [job for job in queued_jobs() if job.func_name == "federation.tasks.deliver"]
    assert sent.kwargs["inbox"] == "https://remote.example/inbox"
    document = sent.kwargs["activity"]["object"]
    assert document["inReplyTo"] == note["id"] and rob.uri in document["cc"]
    assert {"type": "Mention", "href": rob.uri, "name": "@rob@remote.example"} in document["tag"]


def test_liking_another_servers_post_tells_its_author(db, alice):
    rob = remote_actor("rob")
    note = {"id": f"{rob.uri}/statuses/2", "type": "Note", "attributedTo": rob.uri, "content": "<p>like me</p>"}
    note["to"] = ["https://www.w3.org/ns/activitystreams#Public"]
    status_id = remote_statuses.store_note(note=note, author=rob.actor)
    services.like_status(uid=alice.uid, status_id=status_id)
    services.unlike_status(uid=alice.uid, status_id=status_id)
    own = services.post_status(uid=alice.uid, message="mine")
    services.like_status(uid=alice.uid, status_id=own)  # a local post: nobody elsewhere to tell
    sent = [job.kwargs for job in queued_jobs() if job.func_name == "federation.tasks.deliver"]
    assert [(item["inbox"], item["activity"]["type"]) for item in sent] == [
        (rob.actor.inbox, "Like"),
        (rob.actor.inbox, "Undo"),
    ]
    assert sent[0]["activity"]["object"] == note["id"] and sent[1]["activity"]["object"]["type"] == "Like"


def test_a_server_failing_for_a_week_gets_nothing_until_it_is_heard_from(client, alice, followers):
    otto = followers[2]
    store.note_failure("other.example", time.time() - keys.UNAVAILABLE_AFTER_SECONDS - 60)
    store.note_failure("remote.example", time.time() - 60)  # failing for a minute only
    status_id = services.post_status(uid=alice.uid, message="who hears me?")
    assert outbound.fan_out(status_id=status_id, uid=alice.uid) == 1
    assert [inbox for inbox, _, _ in _deliveries()] == ["https://remote.example/inbox"]

    like = {
        "id": f"{otto.uri}#likes/1",
        "type": "Like",
        "actor": otto.uri,
        "object": uris.status_uri("alice", status_id),
    }
    assert post_signed(client, otto, like).status_code == 202
    assert run_queued() == ["liked"]
    assert store.failing_since(["other.example"]) == [None]


def test_a_post_reads_the_inbox_index_and_the_audit_rebuilds_it_when_a_server_moved_its_inbox(alice, followers):
    from django.core.management import call_command

    rob, rita, otto = followers
    # Counted per inbox as they followed: two on remote.example's shared inbox, one on other.example's.
    assert store.remote_inboxes(alice.uid) == {"https://remote.example/inbox": 2, "https://other.example/inbox": 1}
    # other.example moves its shared inbox: the index names the old one until the audit rebuilds it.
    otto.actor.shared_inbox = "https://other.example/shared"
    otto.actor.save()
    call_command("audit_federation", "--fix")
    status_id = services.post_status(uid=alice.uid, message="after the move")
    outbound.fan_out(status_id=status_id, uid=alice.uid)
    assert _deliveries() == [
        ("https://other.example/shared", "Create", "Note"),
        ("https://remote.example/inbox", "Create", "Note"),
    ]
    # rob and rita unfollow: remote.example gets nothing more; an index lost altogether is rebuilt by the post.
    for remote in (rob, rita):
        services.unfollow_user(uid=remote.actor.uid, other_uid=alice.uid)
    store.rebuild_remote_inboxes(alice.uid, {})
    later = services.post_status(uid=alice.uid, message="fewer servers")
    assert outbound.fan_out(status_id=later, uid=alice.uid) == 1
    assert [sent[0] for sent in _deliveries() if sent[0].endswith("/shared")] == ["https://other.example/shared"] * 2

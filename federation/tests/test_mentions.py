"""Mentions and direct messages across servers: ``@login@domain`` in a post is linked, tagged and delivered to that
person; a direct post reaches only them; other servers' posts that mention people here notify them, and their
direct messages land in the conversations of the people they name."""

from __future__ import annotations

import pytest

from federation import contexts, store
from federation.services import outbound
from federation.tests.helpers import post_signed, queued_jobs, remote_actor, run_queued
from timelines import exceptions, policy, selectors, services, uris
from timelines import store as timelines_store
from timelines.tests.helpers import home_timeline_of


@pytest.fixture
def rob(db):
    return remote_actor("rob")


def _deliveries(kind: str = "Create") -> list[dict]:
    return [
        job.kwargs
        for job in queued_jobs()
        if job.func_name == "federation.tasks.deliver" and job.kwargs["activity"]["type"] == kind
    ]


def _fan_out() -> list[int]:
    return run_queued("federation.tasks.fan_out")


def _note(remote, number, *, to, cc=(), tag=(), content="<p>hi</p>", **fields):
    note = {
        "id": f"{remote.uri}/statuses/{number}",
        "type": "Note",
        "attributedTo": remote.uri,
        "content": content,
        "to": list(to),
        "cc": list(cc),
        "tag": list(tag),
        **fields,
    }
    return {"id": f"{note['id']}/activity", "type": "Create", "actor": remote.uri, "object": note}


def _mention(login: str) -> dict:
    return {"type": "Mention", "href": uris.account_uri(login), "name": f"@{login}"}


def test_a_mention_of_a_known_remote_account_is_linked_tagged_and_delivered_to_them(client, alice, rob):
    status_id = services.post_status(uid=alice.uid, message="Hello @rob@remote.example!")
    assert _fan_out() == [1]  # alice has no remote followers: rob is reached for the mention alone
    [delivery] = _deliveries()
    assert delivery["inbox"] == "https://remote.example/inbox"
    note = delivery["activity"]["object"]
    assert {"type": "Mention", "href": rob.uri, "name": "@rob@remote.example"} in note["tag"]
    assert rob.uri in note["cc"] and note["to"] == [contexts.PUBLIC]
    assert f'href="{rob.actor.url}"' in note["content"]  # his own page, not his copy here
    page = client.get(f"/@alice/{status_id}").content.decode()
    assert 'href="/@rob@remote.example"' in page


def test_a_direct_post_reaches_only_the_remote_person_it_names(alice, rob):
    otto = remote_actor("otto", "other.example")  # a follower of alice's on another server
    services.follow_user(uid=otto.actor.uid, other_uid=alice.uid)
    store.add_remote_follower(alice.uid, otto.actor.uid, 1.0, inbox=otto.actor.delivery_inbox)
    status_id = services.post_status(uid=alice.uid, message="@rob@remote.example just you", visibility="direct")
    assert _fan_out() == [1]
    [delivery] = _deliveries()
    assert delivery["inbox"] == "https://remote.example/inbox"
    assert delivery["activity"]["object"]["to"] == [rob.uri] and delivery["activity"]["object"]["cc"] == []
    assert delivery["activity"]["to"] == [rob.uri]
    # Deleting it tells him alone too.
    services.delete_status(uid=alice.uid, status_id=status_id)
    _fan_out()
    assert [job["inbox"] for job in _deliveries("Delete")] == ["https://remote.example/inbox"]


def test_a_direct_post_to_an_unknown_remote_account_asks_to_wait_and_looks_them_up(alice):
    with pytest.raises(exceptions.InvalidVisibility, match="being looked up"):
        services.post_status(uid=alice.uid, message="@nobody@far.example hi", visibility="direct")
    assert [job.kwargs["acct"] for job in queued_jobs() if job.func_name == "federation.tasks.look_up"] == [
        "nobody@far.example"
    ]
    assert selectors.get_conversations(uid=alice.uid) == []


def test_a_remote_post_that_mentions_someone_here_notifies_them(client, alice, rob, make_account):
    carol = make_account("carol")
    public = _note(rob, 1, to=[contexts.PUBLIC], cc=[rob.followers], tag=[_mention("alice")])
    assert post_signed(client, rob, public).status_code == 202
    assert run_queued() == ["stored"]
    [notification] = selectors.get_notifications(uid=alice.uid)
    assert notification.kind == "mention" and notification.actor.login == "rob@remote.example"
    assert selectors.get_notifications(uid=carol.uid) == []


def test_a_remote_direct_message_lands_in_the_conversation_and_the_answer_goes_back_to_him_only(
    client, alice, rob, make_account
):
    carol = make_account("carol")
    services.follow_user(uid=carol.uid, other_uid=rob.actor.uid)  # a request; nothing direct reaches her anyway
    direct = _note(rob, 2, to=[uris.account_uri("alice")], tag=[_mention("alice")], content="<p>@alice psst</p>")
    assert post_signed(client, rob, direct).status_code == 202
    assert run_queued() == ["stored"]
    [conversation] = selectors.get_conversations(uid=alice.uid)
    assert [person.login for person in conversation.others] == ["rob@remote.example"]
    assert conversation.unread and conversation.last.message == "@alice psst"
    stored = timelines_store.statuses.get_status(conversation.last.id)
    assert policy.may_see(viewer=alice.uid, status=stored) and not policy.may_see(viewer=carol.uid, status=stored)
    assert home_timeline_of(alice.uid) == [] and home_timeline_of(carol.uid) == []
    assert [n.kind for n in selectors.get_notifications(uid=alice.uid)] == ["mention"]

    for job in list(queued_jobs()):
        job.delete()
    services.send_message(uid=alice.uid, message="got it", conversation_id=conversation.id)
    assert _fan_out() == [1]
    [delivery] = _deliveries()
    assert delivery["activity"]["object"]["to"] == [rob.uri]
    assert delivery["activity"]["object"]["tag"][0]["href"] == rob.uri
    assert [c.id for c in selectors.get_conversations(uid=alice.uid)] == [conversation.id]


def test_a_remote_direct_message_to_someone_who_blocks_its_author_is_not_stored(client, alice, rob):
    services.block_user(uid=alice.uid, other_uid=rob.actor.uid)
    direct = _note(rob, 3, to=[uris.account_uri("alice")], tag=[_mention("alice")])
    assert post_signed(client, rob, direct).status_code == 202
    assert run_queued() == ["not stored"]
    assert selectors.get_conversations(uid=alice.uid) == []
    assert outbound.fan_out(status_id=1, uid=alice.uid) == 0

"""Activities about people: another server's Block, Flag (a report) and account Delete taken here, and a local
profile's changes (Update) and deletion (Delete) sent to the servers that know it."""

from __future__ import annotations

import pytest

from accounts.models import Report
from federation import contexts, store
from federation.models import RemoteActor
from federation.tests.helpers import post_signed, public_create, queued_jobs, remote_actor, run_queued
from timelines import exceptions, selectors, services, uris
from timelines.queue import get_queue
from timelines.services import erasure
from timelines.services.follows import make_follow


@pytest.fixture
def rob(db):
    return remote_actor("rob")


def _deliveries(kind: str) -> list[dict]:
    return [
        job.kwargs
        for job in queued_jobs()
        if job.func_name == "federation.tasks.deliver" and job.kwargs["activity"]["type"] == kind
    ]


def _erase_all() -> None:
    """Run the erasure's passes, as workers would, until none is left."""
    while run_queued("timelines.tasks.erase"):
        pass


def _befriend(alice, remote) -> None:
    services.follow_user(uid=remote.actor.uid, other_uid=alice.uid)
    store.add_remote_follower(alice.uid, remote.actor.uid, 1.0, inbox=remote.actor.delivery_inbox)
    make_follow(uid=alice.uid, other_uid=remote.actor.uid, notify_followee=False)


def test_a_remote_block_ends_follows_both_ways_and_hides_them_until_undone(client, alice, rob):
    _befriend(alice, rob)
    block = {"id": f"{rob.uri}#blocks/1", "type": "Block", "actor": rob.uri, "object": uris.account_uri("alice")}
    assert post_signed(client, rob, block).status_code == 202
    assert run_queued() == ["blocked"]
    assert not selectors.is_following(uid=alice.uid, other_uid=rob.actor.uid)
    assert not selectors.is_following(uid=rob.actor.uid, other_uid=alice.uid)
    with pytest.raises(exceptions.CannotFollow):
        services.follow_user(uid=alice.uid, other_uid=rob.actor.uid)

    undo = {"id": f"{rob.uri}#blocks/1/undo", "type": "Undo", "actor": rob.uri, "object": block}
    assert post_signed(client, rob, undo).status_code == 202
    assert run_queued() == ["unblocked"]
    assert services.follow_user(uid=alice.uid, other_uid=rob.actor.uid) == services.REQUESTED


def test_a_remote_report_lands_in_the_moderators_queue_as_that_servers(client, alice, rob, make_account):
    status_id = services.post_status(uid=alice.uid, message="buy now")
    bob_status = services.post_status(uid=make_account("bob").uid, message="not alice's")
    flag = {
        "id": "https://remote.example/flags/1",
        "type": "Flag",
        "actor": rob.uri,
        "content": "spam",
        "object": [
            uris.account_uri("alice"),
            uris.status_uri("alice", status_id),
            uris.status_uri("bob", bob_status),
        ],
    }
    assert post_signed(client, rob, flag).status_code == 202
    assert run_queued() == ["reported"]
    report = Report.objects.get()
    assert report.reported.uid == alice.uid and report.state == Report.State.OPEN
    assert report.reporter.username == "remote.example" and not report.reporter.is_active
    assert report.status_ids == [status_id]
    assert report.comment == "Forwarded by remote.example: spam"
    nobody = {**flag, "id": "https://remote.example/flags/2", "object": [uris.account_uri("nobody")]}
    assert post_signed(client, rob, nobody).status_code == 202
    assert run_queued() == ["unknown account"]
    assert Report.objects.count() == 1


def test_a_remote_accounts_deletion_removes_it_and_its_posts(client, alice, rob):
    _befriend(alice, rob)
    assert post_signed(client, rob, public_create(rob, 1, "soon gone")).status_code == 202
    assert run_queued() == ["stored"]
    [entry] = selectors.get_status_messages(uid=alice.uid, count=10)
    delete = {"id": f"{rob.uri}#delete", "type": "Delete", "actor": rob.uri, "object": rob.uri, "to": [contexts.PUBLIC]}
    assert post_signed(client, rob, delete).status_code == 202
    assert run_queued() == ["account deleted"]
    _erase_all()
    assert not RemoteActor.objects.filter(uri=rob.uri).exists()
    with pytest.raises(exceptions.StatusNotFound):
        selectors.get_status(status_id=entry.id)
    assert selectors.get_status_messages(uid=alice.uid, count=10) == []
    me = selectors.get_user(uid=alice.uid)
    assert (me.followers, me.following) == (0, 0)
    # Signed by it again: its key is no longer known, and the actor cannot be fetched.
    assert post_signed(client, rob, public_create(rob, 2, "ghost")).status_code == 401


def test_a_move_takes_the_followers_here_to_the_new_account_when_it_names_the_old(client, alice, rob, make_account):
    carol = make_account("carol")
    for person in (alice, carol):
        make_follow(uid=person.uid, other_uid=rob.actor.uid, notify_followee=False)
    rita = remote_actor("rita", alsoKnownAs=[rob.uri])
    stranger = remote_actor("sam", "other.example")  # names nobody: a Move to it is refused
    refused = {"id": f"{rob.uri}#moves/0", "type": "Move", "actor": rob.uri, "object": rob.uri, "target": stranger.uri}
    assert post_signed(client, rob, refused).status_code == 202
    assert run_queued() in (["not an alias"], ["unknown target"])
    assert selectors.is_following(uid=alice.uid, other_uid=rob.actor.uid)

    move = {"id": f"{rob.uri}#moves/1", "type": "Move", "actor": rob.uri, "object": rob.uri, "target": rita.uri}
    assert post_signed(client, rob, move).status_code == 202
    assert run_queued() == ["moved 2"]
    for person in (alice, carol):
        assert not selectors.is_following(uid=person.uid, other_uid=rob.actor.uid)
    follows = [job for job in _deliveries("Follow") if job["activity"]["object"] == rita.uri]
    assert sorted(job["signer"] for job in follows) == sorted([alice.uid, carol.uid])


def test_a_profile_change_sends_the_actors_update_to_remote_followers(alice, rob):
    _befriend(alice, rob)
    get_queue().empty()
    services.update_profile(uid=alice.uid, name="Alice Liddell", bio="Down the rabbit hole")
    assert run_queued("federation.tasks.actor_update") == [1]
    [update] = _deliveries("Update")
    assert update["inbox"] == "https://remote.example/inbox" and update["signer"] == alice.uid
    person = update["activity"]["object"]
    assert person["type"] == "Person" and person["name"] == "Alice Liddell"
    assert "Down the rabbit hole" in person["summary"]
    services.update_profile(uid=alice.uid, name="Alice Liddell")  # no change: nothing sent
    assert run_queued("federation.tasks.actor_update") == []


def test_a_deleted_account_tells_its_remote_followers_and_followees(alice, rob):
    _befriend(alice, rob)
    otto = remote_actor("otto", "other.example")
    make_follow(uid=alice.uid, other_uid=otto.actor.uid, notify_followee=False)
    get_queue().empty()
    erasure.delete_account(uid=alice.uid)
    deletes = _deliveries("Delete")
    assert sorted(job["inbox"] for job in deletes) == ["https://other.example/inbox", "https://remote.example/inbox"]
    assert {job["activity"]["object"] for job in deletes} == {uris.account_uri("alice")}

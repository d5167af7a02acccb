"""The inboxes: only signed activities from their own actor, 202 at once, the work in jobs, idempotent (step 3)."""

from __future__ import annotations

import json

import pytest

from federation import contexts, store
from federation.tests.helpers import post_signed, queued_jobs, remote_actor, run_queued
from socialsite.redis_client import get_redis
from timelines import keys, policy, selectors, services, uris
from timelines.tests.helpers import home_timeline_of


@pytest.fixture
def rob(db):
    return remote_actor("rob")


def _follow(remote, login="alice"):
    return {"id": f"{remote.uri}#follows/1", "type": "Follow", "actor": remote.uri, "object": uris.account_uri(login)}


def _note(remote, number, **fields):
    note = {
        "id": f"{remote.uri}/statuses/{number}",
        "type": "Note",
        "attributedTo": remote.uri,
        "content": f"<p>Note {number} &amp; more<br>second line</p>",
        "published": "2026-11-25T10:00:00Z",
        "to": [contexts.PUBLIC],
        "cc": [remote.followers],
        **fields,
    }
    return {"id": f"{note['id']}/activity", "type": "Create", "actor": remote.uri, "object": note}


@pytest.mark.parametrize(
    "case", ["unsigned", "not json", "not an object", "unknown type", "huge", "tampered", "another actor", "no actor"]
)
def test_bad_requests_get_a_4xx_and_queue_nothing(client, alice, rob, case):
    follow = _follow(rob)
    if case == "unsigned":
        response = client.post("/inbox", json.dumps(follow), content_type="application/activity+json")
        expected = 401
    elif case == "not json":
        response, expected = post_signed(client, rob, None, body=b"{nope"), 400
    elif case == "not an object":
        response, expected = post_signed(client, rob, [follow]), 400
    elif case == "unknown type":
        response, expected = post_signed(client, rob, {**follow, "type": "Explode"}), 400
    elif case == "huge":
        response, expected = post_signed(client, rob, {**follow, "padding": "x" * 300_000}), 413
    elif case == "tampered":
        response, expected = post_signed(client, rob, follow, Digest="SHA-256=AAAA"), 401
    elif case == "another actor":
        response, expected = post_signed(client, rob, {**follow, "actor": "https://remote.example/users/eve"}), 401
    else:
        response, expected = (
            post_signed(client, rob, {key: value for key, value in follow.items() if key != "actor"}),
            400,
        )
    assert response.status_code == expected, response.content
    assert "error" in response.json()
    assert queued_jobs() == []


def test_an_unknown_key_is_refused_and_only_post_is_allowed(client, alice, rob):
    rob.uri = "https://nowhere.invalid/users/rob"  # a key no server can be asked for
    assert post_signed(client, rob, {**_follow(rob)}).status_code == 401
    assert client.get("/inbox").status_code == 405
    assert post_signed(client, rob, _follow(rob), path="/users/nobody/inbox").status_code == 404


def test_a_follow_is_accepted_in_a_job_makes_a_remote_follower_and_answers_accept(client, alice, rob):
    response = post_signed(client, rob, _follow(rob), path="/users/alice/inbox")
    assert response.status_code == 202, response.content
    assert run_queued() == ["followed"]
    assert selectors.is_following(uid=rob.actor.uid, other_uid=alice.uid)
    assert store.remote_followers(alice.uid) == [rob.actor.uid]
    accept = next(job for job in queued_jobs() if job.func_name == "federation.tasks.deliver")
    assert accept.kwargs["inbox"] == rob.actor.inbox and accept.kwargs["signer"] == alice.uid
    assert accept.kwargs["activity"]["type"] == "Accept"
    assert accept.kwargs["activity"]["object"]["id"] == _follow(rob)["id"]
    # Delivered again: nothing more happens (the job of that activity ran already).
    assert post_signed(client, rob, _follow(rob)).status_code == 202
    assert run_queued() == []
    assert selectors.get_user(uid=alice.uid).followers == 1

    undo = {"id": f"{rob.uri}#undo/1", "type": "Undo", "actor": rob.uri, "object": _follow(rob)}
    assert post_signed(client, rob, undo).status_code == 202
    assert run_queued() == ["unfollowed"]
    assert not selectors.is_following(uid=rob.actor.uid, other_uid=alice.uid)
    assert store.remote_followers(alice.uid) == []


def test_remote_posts_reach_followers_homes_by_visibility_once_and_go_when_deleted(client, alice, rob, make_account):
    carol = make_account("carol")
    # alice's follow of rob is a request until rob's server accepts it.
    assert services.follow_user(uid=alice.uid, other_uid=rob.actor.uid) == services.REQUESTED
    follow = next(job for job in queued_jobs() if job.func_name == "federation.tasks.deliver")
    assert follow.kwargs["activity"]["type"] == "Follow" and follow.kwargs["inbox"] == rob.actor.inbox
    accept = {"id": f"{rob.uri}#accepts/1", "type": "Accept", "actor": rob.uri, "object": follow.kwargs["activity"]}
    assert post_signed(client, rob, accept).status_code == 202
    assert run_queued() == ["accepted"]
    assert selectors.is_following(uid=alice.uid, other_uid=rob.actor.uid)

    public = _note(rob, 1)
    private = _note(rob, 2, to=[rob.followers], cc=[])
    for activity in (public, private):
        assert post_signed(client, rob, activity).status_code == 202
    assert run_queued() == ["stored", "stored"]
    # The same Note again, in an activity with another id (a server resending it): still one status.
    assert post_signed(client, rob, {**public, "id": public["id"] + "/again"}).status_code == 202
    assert run_queued() == ["stored"]
    home = home_timeline_of(alice.uid)
    assert len(home) == 2
    stored = [selectors.get_status(status_id=status_id) for status_id in home]
    assert {status.message for status in stored} == {"Note 1 & more\nsecond line", "Note 2 & more\nsecond line"}
    assert all(status.login == "rob@remote.example" for status in stored)
    followers_only = next(status for status in stored if status.visibility == "private")
    assert followers_only.extra["uri"] == private["object"]["id"]
    # carol does not follow rob: she may not see the followers-only post, though anyone may see the public one.
    assert not policy.may_see(viewer=carol.uid, status=followers_only)
    assert policy.may_see(viewer=alice.uid, status=followers_only)
    assert home_timeline_of(carol.uid) == []

    # A Delete by someone else changes nothing; the author's removes it.
    eve = remote_actor("eve")
    forged = {"id": f"{eve.uri}#delete/1", "type": "Delete", "actor": eve.uri, "object": private["object"]["id"]}
    assert post_signed(client, eve, forged).status_code == 202
    delete = {"id": f"{rob.uri}#delete/2", "type": "Delete", "actor": rob.uri, "object": private["object"]["id"]}
    assert post_signed(client, rob, delete).status_code == 202
    assert run_queued() == ["unknown post", "deleted"]
    assert home_timeline_of(alice.uid) == [home[1] if home[0] == followers_only.id else home[0]]
    assert get_redis().exists(keys.status(followers_only.id)) == 0


def test_a_note_attributed_to_someone_else_is_not_stored(client, alice, rob):
    eve = remote_actor("eve")
    activity = _note(rob, 3)
    activity["object"]["attributedTo"] = eve.uri
    assert post_signed(client, rob, activity).status_code == 202
    assert run_queued() == ["not its own"]


def test_likes_and_announces_of_local_posts_go_through_the_sites_rules(client, alice, rob):
    public = services.post_status(uid=alice.uid, message="like me")
    private = services.post_status(uid=alice.uid, message="followers only", visibility="private")
    like = {"id": f"{rob.uri}#likes/1", "type": "Like", "actor": rob.uri, "object": uris.status_uri("alice", public)}
    announce = {
        "id": f"{rob.uri}/statuses/9/activity",
        "type": "Announce",
        "actor": rob.uri,
        "object": uris.status_uri("alice", public),
        "to": [contexts.PUBLIC],
    }
    hidden = {**announce, "id": f"{rob.uri}/statuses/10/activity", "object": uris.status_uri("alice", private)}
    for activity in (like, announce, hidden):
        assert post_signed(client, rob, activity).status_code == 202
    assert run_queued() == ["liked", "reposted", "refused"]
    status = selectors.get_status(status_id=public)
    assert status.like_count == 1 and status.repost_count == 1
    notes = selectors.get_notifications(uid=alice.uid)
    assert {"like", "repost"} <= {note.kind for note in notes}
    # Named as login@domain, so the links go to rob's profile here, never to a local @rob.
    assert {note.actor.login for note in notes} == {"rob@remote.example"}
    repost_id = next(entry.repost_id for entry in selectors.get_status_messages(uid=rob.actor.uid, timeline="profile"))
    assert selectors.get_status(status_id=repost_id).login == "rob@remote.example"

    undo = {"id": f"{rob.uri}#likes/1/undo", "type": "Undo", "actor": rob.uri, "object": like}
    assert post_signed(client, rob, undo).status_code == 202
    assert run_queued() == ["unliked"]
    assert selectors.get_status(status_id=public).like_count == 0


def test_an_actor_may_update_itself_only(client, alice, rob):
    eve = remote_actor("eve")
    renamed = {
        "id": rob.uri,
        "type": "Person",
        "preferredUsername": "rob",
        "name": "Robert",
        "inbox": f"{rob.uri}/inbox",
        "publicKey": {"id": rob.key_id, "owner": rob.uri, "publicKeyPem": rob.actor.public_key_pem},
    }
    update = {"id": f"{rob.uri}#updates/1", "type": "Update", "actor": rob.uri, "object": renamed}
    forged = {"id": f"{eve.uri}#updates/1", "type": "Update", "actor": eve.uri, "object": {**renamed, "name": "Evil"}}
    assert post_signed(client, rob, update).status_code == 202
    assert post_signed(client, eve, forged).status_code == 202
    assert run_queued() == ["updated", "ignored"]
    assert selectors.get_user(uid=rob.actor.uid).name == "Robert"


def test_a_private_accounts_answer_to_a_remote_request_is_sent_back(client, alice, rob):
    services.set_private(uid=alice.uid, private=True)
    rita = remote_actor("rita", "third.example")
    for remote in (rob, rita):
        assert post_signed(client, remote, _follow(remote)).status_code == 202
    assert run_queued() == ["requested", "requested"]
    assert not selectors.is_following(uid=rob.actor.uid, other_uid=alice.uid)
    assert not [job for job in queued_jobs() if job.func_name == "federation.tasks.deliver"]

    services.approve_follow_request(uid=alice.uid, requester_uid=rob.actor.uid)
    services.reject_follow_request(uid=alice.uid, requester_uid=rita.actor.uid)
    answers = {
        job.kwargs["inbox"]: job.kwargs["activity"]
        for job in queued_jobs()
        if job.func_name == "federation.tasks.deliver"
    }
    assert answers[rob.actor.inbox]["type"] == "Accept"
    assert answers[rob.actor.inbox]["object"]["id"] == _follow(rob)["id"]
    assert answers[rita.actor.inbox]["type"] == "Reject"
    assert selectors.is_following(uid=rob.actor.uid, other_uid=alice.uid)
    assert store.remote_followers(alice.uid) == [rob.actor.uid]


@pytest.mark.parametrize(
    "activity",
    [
        {"type": ["Create"], "actor": "x"},
        {"type": "Create", "actor": {"no": "id"}},
        {"type": "Follow", "actor": "https://[broken/users/x"},
        {"type": "Follow", "actor": "https://remote.example/users/rob", "object": {"weird": ["shape"]}},
        {"type": "Delete", "actor": 42},
    ],
)
def test_odd_activities_are_answered_4xx_or_accepted_never_500(client, alice, rob, activity):
    response = post_signed(client, rob, activity)
    assert response.status_code in (202, 400, 401)
    if response.status_code == 202:
        assert run_queued() in (["unknown account"], ["ignored"])


@pytest.mark.parametrize(
    "signature",
    [
        'keyId="https://[broken#main-key",signature="AAAA",headers="(request-target) host date digest"',
        'keyId="ftp://remote.example/key",signature="AAAA",headers="(request-target) host date digest"',
        'keyId="https://127.0.0.1/key",signature="AAAA",headers="(request-target) host date digest"',
        'keyId="' + "x" * 5000 + '",signature="AAAA"',
    ],
)
def test_odd_signatures_are_401(client, alice, rob, signature):
    response = post_signed(client, rob, _follow(rob), Signature=signature)
    assert response.status_code == 401
    assert queued_jobs() == []


def test_an_edit_of_a_remote_post_is_a_new_version_and_only_its_author_may_make_it(client, alice, rob):
    create = _note(rob, 4)
    assert post_signed(client, rob, create).status_code == 202
    assert run_queued() == ["stored"]
    edited = {**create["object"], "content": "<p>Note 4, corrected</p>", "updated": "2026-11-25T11:00:00Z"}
    eve = remote_actor("eve")
    forged = {"id": f"{eve.uri}#updates/1", "type": "Update", "actor": eve.uri, "object": edited}
    update = {"id": f"{rob.uri}#updates/1", "type": "Update", "actor": rob.uri, "object": edited}
    assert post_signed(client, eve, forged).status_code == 202
    assert post_signed(client, rob, update).status_code == 202
    assert run_queued() == ["ignored", "edited"]
    status = selectors.get_status(status_id=store.object_status(create["object"]["id"]))
    assert status.message == "Note 4, corrected" and status.edits == 1


def test_an_edit_of_a_long_remote_post_is_kept_whole(client, alice, rob):
    """Another server's post may be longer than the 280 characters of a post typed here (Mastodon allows 500):
    its edit is taken under the same limit it was stored under."""
    create = _note(rob, 5)
    create["object"]["content"] = "<p>" + "long " * 80 + "</p>"
    assert post_signed(client, rob, create).status_code == 202
    assert run_queued() == ["stored"]
    longer = "<p>" + "longer " * 70 + "</p>"
    edited = {**create["object"], "content": longer, "updated": "2026-11-25T11:00:00Z"}
    update = {"id": f"{rob.uri}#updates/5", "type": "Update", "actor": rob.uri, "object": edited}
    assert post_signed(client, rob, update).status_code == 202
    assert run_queued() == ["edited"]
    status = selectors.get_status(status_id=store.object_status(create["object"]["id"]))
    assert status.message == ("longer " * 70).strip() and len(status.message) > 400 and status.edits == 1


def test_each_server_has_its_own_inbox_rate_limit(client, alice, rob, settings):
    settings.RATE_LIMIT_INBOX_PER_SERVER = "2/1m"
    rita = remote_actor("rita", "third.example")
    answers = [post_signed(client, rob, {**_follow(rob), "id": f"{rob.uri}#follows/{n}"}) for n in range(3)]
    assert [answer.status_code for answer in answers] == [202, 202, 429]
    assert int(answers[2]["Retry-After"]) >= 1 and answers[2].json()["error"] == "rate limited"
    # Another server is counted apart, and unsigned requests spend nobody's share.
    assert post_signed(client, rita, _follow(rita)).status_code == 202
    assert client.post("/inbox", "{}", content_type="application/activity+json").status_code == 401


def test_unfollowing_another_servers_account_tells_its_server_and_a_local_one_tells_no_one(
    client, alice, rob, make_account
):
    carol = make_account("carol")
    services.follow_user(uid=alice.uid, other_uid=rob.actor.uid)
    follow = next(job for job in queued_jobs() if job.func_name == "federation.tasks.deliver")
    accept = {"id": f"{rob.uri}#accepts/1", "type": "Accept", "actor": rob.uri, "object": follow.kwargs["activity"]}
    assert post_signed(client, rob, accept).status_code == 202
    assert run_queued() == ["accepted"]
    services.follow_user(uid=alice.uid, other_uid=carol.uid)

    assert services.unfollow_user(uid=alice.uid, other_uid=carol.uid)
    assert services.unfollow_user(uid=alice.uid, other_uid=rob.actor.uid)
    sent = [job.kwargs for job in queued_jobs() if job.func_name == "federation.tasks.deliver"]
    assert [(item["inbox"], item["activity"]["type"]) for item in sent] == [
        (rob.actor.inbox, "Follow"),
        (rob.actor.inbox, "Undo"),
    ]
    assert sent[1]["activity"]["object"]["type"] == "Follow"

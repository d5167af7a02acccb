"""A post's ``replies`` collection as other servers fetch it, the fetch of a remote thread's missing replies
queued when the thread is opened (once per cooldown), and search finding a post by its address (issue 22)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from api.tests.helpers import Api, token_for
from federation import identities, store
from federation.tests.conftest import AP
from federation.tests.helpers import post_signed, public_create, queued_jobs, remote_actor, run_queued
from timelines import services, uris


@pytest.fixture
def rob(db):
    return remote_actor("rob")


def _browser(user: User) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def test_a_note_names_its_replies_and_the_collection_lists_those_anyone_may_see(client, alice, make_account, rob):
    bob, carol = make_account("bob"), make_account("carol")
    post = services.post_status(uid=alice.uid, message="Thoughts?")
    first = services.post_status(uid=bob.uid, message="@alice yes", in_reply_to=post)
    services.post_status(uid=carol.uid, message="@alice only my followers", in_reply_to=post, visibility="private")
    reply_uri = f"{rob.uri}/statuses/9"
    created = public_create(rob, 9, "from afar", inReplyTo=uris.status_uri("alice", post))
    assert post_signed(client, rob, created).status_code == 202
    assert run_queued() == ["stored"]

    collection_uri = identities.replies("alice", post)
    note = client.get(f"/@alice/{post}", HTTP_ACCEPT=AP).json()
    # Mastodon's shape: a Collection whose first page is embedded and whose next page lists the replies.
    assert note["replies"]["id"] == collection_uri and note["replies"]["type"] == "Collection"
    assert note["replies"]["first"]["items"] == [] and note["replies"]["first"]["next"] == f"{collection_uri}?page=true"

    collection = client.get(f"/users/alice/statuses/{post}/replies", HTTP_ACCEPT=AP).json()
    listed = [uris.status_uri("bob", first), reply_uri]  # oldest first; carol's is for her followers only
    assert collection["id"] == collection_uri and collection["first"]["items"] == listed
    page = client.get(f"/users/alice/statuses/{post}/replies", {"page": "true"}, HTTP_ACCEPT=AP).json()
    assert page["type"] == "CollectionPage" and page["items"] == listed and page["partOf"] == collection_uri
    private = services.post_status(uid=alice.uid, message="quiet", visibility="private")
    assert client.get(f"/users/alice/statuses/{private}/replies").status_code == 404
    assert client.get(f"/users/bob/statuses/{post}/replies").status_code == 404


def test_opening_a_remote_thread_queues_one_fetch_of_its_replies_until_the_cooldown_ends(client, alice, rob):
    assert post_signed(client, rob, public_create(rob, 1, "A remote post")).status_code == 202
    assert run_queued() == ["stored"]
    mine = services.post_status(uid=alice.uid, message="A local post")
    remote_id = store.object_status(f"{rob.uri}/statuses/1")
    browser = _browser(alice)

    def fetches() -> list[str]:
        return [job.id for job in queued_jobs() if job.func_name == "federation.tasks.fetch_replies"]

    assert browser.get(f"/@alice/{mine}").status_code == 200
    assert fetches() == []  # a local post's replies are all here
    assert browser.get(f"/@rob@remote.example/{remote_id}").status_code == 200
    assert fetches() == [f"ap-replies-{remote_id}"]
    run_queued("federation.tasks.fetch_replies")  # remote.example cannot be reached: nothing stored
    # Reloaded (by anyone, or through the API's context), within the cooldown: nothing more is fetched.
    assert Client().get(f"/@rob@remote.example/{remote_id}").status_code == 200
    assert client.get(f"/api/v1/statuses/{remote_id}/context").status_code == 200
    assert fetches() == []


def test_a_pasted_address_of_a_local_post_finds_it_as_the_policy_lets_the_viewer_see_it(alice, make_account):
    bob, carol = make_account("bob"), make_account("carol")
    services.follow_user(uid=bob.uid, other_uid=alice.uid)
    public = services.post_status(uid=alice.uid, message="Find me by my address")
    private = services.post_status(uid=alice.uid, message="Followers see this", visibility="private")

    found = _browser(carol).get("/search", {"q": uris.status_uri("alice", public)})
    assert found.status_code == 200 and "Find me by my address" in found.content.decode()
    # Not for carol, who does not follow alice; for bob, who does.
    address = {"q": uris.status_uri("alice", private)}
    assert "Followers see this" not in _browser(carol).get("/search", address).content.decode()
    assert "Followers see this" in _browser(bob).get("/search", address).content.decode()
    # The address of a profile finds the person; an address naming nothing finds nothing, without a 500.
    profile = Client().get("/search", {"q": uris.account_uri("alice")})
    assert profile.status_code == 200 and 'href="/@alice"' in profile.content.decode()
    wrong = Client().get("/search", {"q": uris.status_uri("bob", public)})
    assert wrong.status_code == 200 and "Find me by my address" not in wrong.content.decode()

    api = Api(token_for("bob"))
    answer = api.get("/api/v2/search", {**address, "resolve": "true"}).json()
    assert [status["content"] for status in answer["statuses"]] == ["<p>Followers see this</p>"]
    answer = Api(token_for("carol")).get("/api/v2/search", {**address, "resolve": "true"})
    assert answer.status_code == 200 and answer.json()["statuses"] == []


def test_replies_received_to_a_post_missing_here_queue_one_fetch_of_the_posts_above_them(client, alice, rob):
    services.follow_user(uid=alice.uid, other_uid=rob.actor.uid)
    missing = f"{rob.uri}/statuses/100"
    for number in (101, 102):  # two replies to the same post, which never reached this server
        created = public_create(rob, number, f"reply {number}", inReplyTo=missing)
        assert post_signed(client, rob, created).status_code == 202

    def fetches() -> list[dict]:
        return [job.kwargs for job in queued_jobs() if job.func_name == "federation.tasks.fetch_ancestors"]

    assert run_queued("federation.tasks.process_inbound") == ["stored", "stored"]
    first = store.object_status(f"{rob.uri}/statuses/101")
    assert fetches() == [{"status_id": first, "parent_uri": missing}]
    # A reply to a post known here, or to a local one, fetches nothing.
    mine = services.post_status(uid=alice.uid, message="mine")
    answer = public_create(rob, 103, "to alice", inReplyTo=uris.status_uri("alice", mine))
    assert post_signed(client, rob, answer).status_code == 202
    run_queued("federation.tasks.process_inbound")
    assert len(fetches()) == 1

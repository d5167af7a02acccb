"""Actors, Notes and collections as another server fetches them (step 1 of issue 22)."""

from __future__ import annotations

from cryptography.hazmat.primitives import serialization

from federation import contexts, identities
from federation.models import KeyPair
from federation.tests.conftest import AP
from timelines import services, uris


def test_the_profile_uri_answers_a_person_to_activitypub_and_the_page_to_a_browser(client, alice):
    services.update_profile(uid=alice.uid, bio="Hello #fediverse")
    response = client.get("/@alice", HTTP_ACCEPT=AP)
    assert response.status_code == 200
    assert response["Content-Type"] == contexts.ACTIVITY_JSON
    actor = response.json()
    uri = uris.account_uri("alice")
    assert actor["id"] == uri and actor["type"] == "Person" and actor["preferredUsername"] == "alice"
    assert actor["name"] == "Alice" and "fediverse" in actor["summary"]
    assert actor["inbox"] == identities.inbox("alice") and actor["outbox"] == identities.outbox("alice")
    assert actor["followers"].endswith("/users/alice/followers") and actor["following"].endswith("/following")
    assert actor["featured"].endswith("/users/alice/collections/featured")
    assert actor["endpoints"]["sharedInbox"] == identities.shared_inbox()
    assert actor["url"] == uri and actor["icon"]["type"] == "Image"
    key = actor["publicKey"]
    assert key["id"] == f"{uri}#main-key" and key["owner"] == uri
    # The published key is the account's own, kept in SQL; the private half is never served.
    stored = KeyPair.objects.get(uid=alice.uid)
    assert key["publicKeyPem"] == stored.public_key_pem
    serialization.load_pem_public_key(key["publicKeyPem"].encode())
    assert "PRIVATE" not in response.content.decode()
    # Asking again serves the same key.
    assert client.get("/@alice", HTTP_ACCEPT=AP).json()["publicKey"]["publicKeyPem"] == stored.public_key_pem

    page = client.get("/@alice", HTTP_ACCEPT="text/html")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    assert client.get("/@nobody", HTTP_ACCEPT=AP).status_code == 404


def test_webfinger_leads_to_the_actor(client, alice):
    found = client.get("/.well-known/webfinger", {"resource": f"acct:alice@{uris.local_domain()}"}).json()
    self_link = next(link for link in found["links"] if link["rel"] == "self")
    assert self_link == {"rel": "self", "type": "application/activity+json", "href": uris.account_uri("alice")}
    assert client.get("/@alice", HTTP_ACCEPT=AP).json()["id"] == self_link["href"]


def test_notes_are_addressed_by_visibility_and_only_public_ones_are_served(client, alice, make_account):
    bob = make_account("bob")
    public = services.post_status(uid=alice.uid, message="Hi @bob, about #redis")
    unlisted = services.post_status(uid=alice.uid, message="quiet", visibility="unlisted")
    private = services.post_status(uid=alice.uid, message="for followers", visibility="private")
    reply = services.post_status(uid=bob.uid, message="@alice yes", in_reply_to=public)

    note = client.get(f"/@alice/{public}", HTTP_ACCEPT=AP).json()
    followers = identities.followers("alice")
    assert note["id"] == uris.status_uri("alice", public) and note["type"] == "Note"
    assert note["attributedTo"] == uris.account_uri("alice")
    assert note["to"] == [contexts.PUBLIC] and note["cc"] == [followers, uris.account_uri("bob")]
    assert {"type": "Mention", "href": uris.account_uri("bob"), "name": "@bob"} in note["tag"]
    assert any(tag["type"] == "Hashtag" and tag["name"] == "#redis" for tag in note["tag"])
    assert note["published"].endswith("Z") and note["inReplyTo"] is None and "@context" in note

    quiet = client.get(f"/@alice/{unlisted}", HTTP_ACCEPT=AP).json()
    assert quiet["to"] == [followers] and quiet["cc"] == [contexts.PUBLIC]
    answer = client.get(f"/@bob/{reply}", HTTP_ACCEPT=AP).json()
    assert answer["inReplyTo"] == uris.status_uri("alice", public)
    # A followers-only post is not served to an unsigned fetch, nor a post under another author's name.
    assert client.get(f"/@alice/{private}", HTTP_ACCEPT=AP).status_code == 404
    assert client.get(f"/@bob/{public}", HTTP_ACCEPT=AP).status_code == 404


def test_outbox_and_collections_count_and_list_only_what_anyone_may_see(client, alice, make_account):
    bob = make_account("bob")
    services.follow_user(uid=bob.uid, other_uid=alice.uid)
    services.post_status(uid=alice.uid, message="everyone")
    services.post_status(uid=alice.uid, message="followers", visibility="private")

    outbox = client.get("/users/alice/outbox").json()
    assert outbox["type"] == "OrderedCollection" and outbox["totalItems"] == 2
    messages = [item["object"]["source"]["content"] for item in outbox["orderedItems"]]
    assert messages == ["everyone"]
    assert all(item["type"] == "Create" for item in outbox["orderedItems"])
    assert client.get("/users/alice/followers").json()["totalItems"] == 1
    assert client.get("/users/bob/following").json()["totalItems"] == 1
    featured = client.get("/users/alice/collections/featured").json()
    assert featured["totalItems"] == 0 and featured["orderedItems"] == []
    assert client.get("/users/nobody/outbox").status_code == 404
    instance = client.get("/actor").json()
    assert instance["id"] == identities.instance_actor() and "publicKeyPem" in instance["publicKey"]

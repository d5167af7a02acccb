"""Authorized fetch (``SOCIALSITE_FEDERATION_AUTHORIZED_FETCH``, Mastodon's AUTHORIZED_FETCH): with it on, every
document but the instance actor is served only to a signed request; unsigned or wrongly signed is 401, a signer
of a suspended server 403; WebFinger, the instance actor and the pages for browsers stay open. Off, anyone
fetches what anyone may see."""

from __future__ import annotations

import pytest

from accounts.models import User
from federation import signatures
from federation.services import domain_blocks
from federation.tests.conftest import AP, PASSWORD
from federation.tests.helpers import remote_actor
from timelines import services, uris


@pytest.fixture
def documents(alice) -> list[str]:
    """The paths of alice's documents: her actor, a post's Note and replies, her outbox and collections."""
    post = services.post_status(uid=alice.uid, message="Signed readers only")
    return [
        "/@alice",
        f"/@alice/{post}",
        f"/users/alice/statuses/{post}/replies",
        "/users/alice/outbox",
        "/users/alice/followers",
        "/users/alice/following",
        "/users/alice/collections/featured",
    ]


def _signed_get(client, remote, path: str, **change: str):
    headers = signatures.sign(method="GET", url=f"http://testserver{path}", key_id=remote.key_id, key=remote.key)
    headers.update(change)
    meta = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers.items()}
    return client.get(path, HTTP_ACCEPT=AP, **meta)


def test_with_authorized_fetch_off_anyone_fetches_the_documents(client, documents):
    assert [client.get(path, HTTP_ACCEPT=AP).status_code for path in documents] == [200] * len(documents)


def test_with_authorized_fetch_on_only_signed_requests_get_the_documents(client, settings, documents):
    settings.SOCIALSITE_FEDERATION_AUTHORIZED_FETCH = True
    rob = remote_actor("rob")

    unsigned = [client.get(path, HTTP_ACCEPT=AP) for path in documents]
    assert [response.status_code for response in unsigned] == [401] * len(documents)
    assert all(response.json()["error"].startswith("signature required") for response in unsigned)

    signed = [_signed_get(client, rob, path) for path in documents]
    assert [response.status_code for response in signed] == [200] * len(documents)
    assert signed[0].json()["preferredUsername"] == "alice"
    assert signed[1].json()["content"] == "<p>Signed readers only</p>"
    assert "Signature" in signed[1]["Vary"]

    # A signature that does not verify (the date changed after signing) is refused like none.
    stale = _signed_get(client, rob, documents[0], Date="Mon, 01 Jan 2024 00:00:00 GMT")
    assert stale.status_code == 401 and stale.json()["error"].startswith("bad signature")


def test_with_authorized_fetch_on_the_instance_actor_webfinger_and_pages_stay_open(client, settings, alice):
    settings.SOCIALSITE_FEDERATION_AUTHORIZED_FETCH = True
    instance = client.get("/actor", HTTP_ACCEPT=AP)
    assert instance.status_code == 200 and instance.json()["type"] == "Application"
    found = client.get("/.well-known/webfinger", {"resource": f"acct:alice@{uris.local_domain()}"})
    assert found.status_code == 200
    page = client.get("/@alice", HTTP_ACCEPT="text/html")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")


def test_with_authorized_fetch_on_a_signer_of_a_suspended_server_is_refused(client, settings, documents):
    settings.SOCIALSITE_FEDERATION_AUTHORIZED_FETCH = True
    rob = remote_actor("rob")
    root = User.objects.create_superuser(username="root", password=PASSWORD)
    domain_blocks.block_domain(moderator=root, domain="remote.example", severity="suspend", reason="spam")

    refused = _signed_get(client, rob, documents[1])
    assert refused.status_code == 403 and "does not federate" in refused.json()["error"]
    # Silenced is not suspended: it still reads what anyone may.
    domain_blocks.block_domain(moderator=root, domain="remote.example", severity="silence", reason="noisy")
    assert _signed_get(client, rob, documents[1]).status_code == 200

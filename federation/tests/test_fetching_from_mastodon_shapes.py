"""Fetching posts as Mastodon serves them, from a small loopback server speaking its shapes: a post's ``url``
(its page) differs from its ``id``; its ``replies`` is a ``Collection`` whose embedded ``first`` page holds the
author's own replies as embedded Notes and whose ``next`` page lists the others' by id. Every fetch is signed by
the instance actor (servers with authorized fetch require it)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from accounts.models import User
from federation import contexts, identities
from federation.services import domain_blocks, lookup, replies
from federation.tests.conftest import PASSWORD
from timelines import selectors

_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
_PEM = _KEY.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


def _documents(base: str) -> dict[str, dict[str, Any]]:
    def actor(login: str) -> dict[str, Any]:
        uri = f"{base}/users/{login}"
        return {
            "id": uri,
            "type": "Person",
            "preferredUsername": login,
            "inbox": f"{uri}/inbox",
            "followers": f"{uri}/followers",
            "publicKey": {"id": f"{uri}#main-key", "owner": uri, "publicKeyPem": _PEM.decode()},
        }

    def note(login: str, number: int, text: str, in_reply_to: str | None, **fields: Any) -> dict[str, Any]:
        return {
            "id": f"{base}/users/{login}/statuses/{number}",
            "type": "Note",
            "attributedTo": f"{base}/users/{login}",
            "url": f"{base}/@{login}/{number}",
            "content": f"<p>{text}</p>",
            "inReplyTo": in_reply_to,
            "to": [contexts.PUBLIC],
            "cc": [f"{base}/users/{login}/followers"],
            **fields,
        }

    post = note("mo", 1, "Mastodon's post", None)
    collection = f"{post['id']}/replies"
    others = f"{collection}?only_other_accounts=true&page=true"
    own_reply = note("mo", 2, "mo answers himself", post["id"])
    post["replies"] = {
        "id": collection,
        "type": "Collection",
        "first": {"type": "CollectionPage", "next": others, "partOf": collection, "items": [own_reply]},
    }
    pat_reply = note("pat", 3, "pat answers", post["id"])
    direct = note("pat", 4, "a direct one", post["id"], to=[f"{base}/users/mo"], cc=[])
    elsewhere = note("pat", 5, "answers something else", f"{base}/users/mo/statuses/99")
    page = {
        "id": others,
        "type": "CollectionPage",
        "partOf": collection,
        "items": [pat_reply["id"], direct["id"], elsewhere["id"], "http://127.0.0.1:9/users/x/statuses/1"],
    }
    found = {document["id"]: document for document in (actor("mo"), actor("pat"), post, pat_reply, direct, elsewhere)}
    found[post["url"]] = post  # the page answers ActivityPub with the Note, as Mastodon's does
    found[others] = page
    return found


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.server.requests.append((self.path, self.headers.get("Signature", "")))
        document = _documents(base).get(base + self.path)
        body = json.dumps(document).encode() if document else b"{}"
        self.send_response(200 if document else 404)
        self.send_header("Content-Type", "application/activity+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def mastodon(settings):
    settings.SOCIALSITE_FEDERATION_INSECURE = True
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.requests = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()


def test_a_post_found_by_its_page_address_then_its_replies_both_shapes(db, mastodon):
    base = f"http://127.0.0.1:{mastodon.server_address[1]}"
    kind, status_id = lookup.resolve_url(f"{base}/@mo/1")
    assert kind == "status"
    status = selectors.get_status(status_id=status_id)
    assert status.message == "Mastodon's post" and status["uri"] == f"{base}/users/mo/statuses/1"
    assert status.login == f"mo@127.0.0.1:{mastodon.server_address[1]}"
    # Known now, by its id: nothing is fetched again.
    asked = len(mastodon.requests)
    assert lookup.resolve_url(f"{base}/users/mo/statuses/1") == ("status", status_id)
    assert len(mastodon.requests) == asked

    assert replies.fetch_replies(status_id=status_id) == 2
    thread = selectors.get_thread(status_id=status_id)
    shown = [(item.depth, item.entry.status.message) for item in thread.descendants if item.entry]
    # The embedded self-reply, then the other account's, fetched by id; not the direct one, nor the reply to
    # another post, nor what cannot be reached.
    assert shown == [(1, "mo answers himself"), (1, "pat answers")]
    assert replies.fetch_replies(status_id=status_id) == 0  # what is here is not stored twice

    # Every request carried a signature by this server's instance actor.
    signed = {signature.split('keyId="', 1)[1].split('"', 1)[0] for _, signature in mastodon.requests}
    assert signed == {identities.key_id(identities.instance_actor())}


def test_nothing_is_fetched_from_a_suspended_server(db, mastodon):
    base = f"http://127.0.0.1:{mastodon.server_address[1]}"
    _, status_id = lookup.resolve_url(f"{base}/users/mo/statuses/1")
    root = User.objects.create_superuser(username="root", password=PASSWORD)
    domain = f"127.0.0.1:{mastodon.server_address[1]}"
    domain_blocks.block_domain(moderator=root, domain=domain, severity="suspend", reason="test")
    asked = len(mastodon.requests)
    assert replies.fetch_replies(status_id=status_id) == 0
    assert lookup.resolve_url(f"{base}/users/pat/statuses/3") is None
    assert len(mastodon.requests) == asked


def test_a_job_stores_at_most_its_share_of_replies(db, mastodon, monkeypatch):
    base = f"http://127.0.0.1:{mastodon.server_address[1]}"
    _, status_id = lookup.resolve_url(f"{base}/users/mo/statuses/1")
    monkeypatch.setattr(replies, "MAX_REPLIES", 1)
    assert replies.fetch_replies(status_id=status_id) == 1
    assert replies.fetch_replies(status_id=status_id) == 1  # the next job, after the cooldown, gets the next
    thread = selectors.get_thread(status_id=status_id)
    assert [item.entry.status.message for item in thread.descendants] == ["mo answers himself", "pat answers"]

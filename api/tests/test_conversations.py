"""Direct conversations through the client API: Mastodon's Conversation entity (``id``, ``unread``, ``accounts``,
``last_status``), ``Link`` pages, marking one read, removing one from one's own list until its next message, and
someone else's conversation answered like one that does not exist."""

from __future__ import annotations

import re

import pytest

from api.tests.helpers import Api, person, token_for
from timelines import selectors, services

pytestmark = pytest.mark.django_db


def link(response, rel: str) -> str | None:
    found = re.search(rf'<([^>]+)>; rel="{rel}"', response.get("Link", ""))
    return found.group(1).replace("http://testserver", "") if found else None


def test_a_direct_message_makes_a_conversation_for_each_participant():
    ada, bob, _ = person("ada"), person("bob"), person("cleo")
    as_ada, as_bob, as_cleo = Api(token_for("ada")), Api(token_for("bob")), Api(token_for("cleo"))
    sent = as_ada.post("/api/v1/statuses", {"status": "@bob just between us", "visibility": "direct"}).json()
    assert sent["visibility"] == "direct"
    [theirs] = as_bob.get("/api/v1/conversations").json()
    assert theirs["unread"] is True
    assert [account["username"] for account in theirs["accounts"]] == ["ada"]
    assert theirs["last_status"]["id"] == sent["id"] and theirs["last_status"]["visibility"] == "direct"
    [mine] = as_ada.get("/api/v1/conversations").json()
    assert mine["id"] == theirs["id"] and mine["unread"] is False
    assert [account["id"] for account in mine["accounts"]] == [str(bob.uid)] and ada.uid
    assert as_cleo.get("/api/v1/conversations").json() == []
    # Someone else's conversation is as good as missing.
    for path in (f"/api/v1/conversations/{theirs['id']}/read", "/api/v1/conversations/999/read"):
        refused = as_cleo.post(path)
        assert refused.status_code == 404 and refused.json() == {"error": "Record not found"}
    assert as_cleo.delete(f"/api/v1/conversations/{theirs['id']}").status_code == 404
    assert as_bob.post("/api/v1/conversations/abc/read").status_code == 404


def test_reading_a_conversation_marks_it_read_on_the_site_too():
    ada, bob = person("ada"), person("bob")
    _, conversation_id = services.send_message(uid=ada.uid, message="hello", to=(bob.uid,))
    as_bob = Api(token_for("bob"))
    assert selectors.get_unread_conversations(uid=bob.uid) == 1
    answer = as_bob.post(f"/api/v1/conversations/{conversation_id}/read")
    assert answer.status_code == 200, answer.content
    assert answer.json()["unread"] is False and answer.json()["id"] == str(conversation_id)
    assert selectors.get_unread_conversations(uid=bob.uid) == 0
    assert as_bob.get("/api/v1/conversations").json()[0]["unread"] is False


def test_removing_a_conversation_hides_it_for_the_remover_only_until_the_next_message():
    ada, bob = person("ada"), person("bob")
    _, conversation_id = services.send_message(uid=ada.uid, message="first", to=(bob.uid,))
    as_bob, as_ada = Api(token_for("bob")), Api(token_for("ada"))
    gone = as_bob.delete(f"/api/v1/conversations/{conversation_id}")
    assert gone.status_code == 200 and gone.json() == {}
    assert as_bob.get("/api/v1/conversations").json() == []
    assert selectors.get_unread_conversations(uid=bob.uid) == 0
    assert [c["id"] for c in as_ada.get("/api/v1/conversations").json()] == [str(conversation_id)]
    assert as_bob.post(f"/api/v1/conversations/{conversation_id}/read").status_code == 404
    assert as_bob.delete(f"/api/v1/conversations/{conversation_id}").status_code == 404
    answer, _ = services.send_message(uid=ada.uid, message="are you there?", conversation_id=conversation_id)
    [back] = as_bob.get("/api/v1/conversations").json()
    assert back["unread"] is True and back["last_status"]["id"] == str(answer)


def test_conversations_page_by_link_headers_newest_message_first():
    ada = person("ada")
    others = [person(f"friend{n}") for n in range(5)]
    ids = [services.send_message(uid=ada.uid, message=f"hi {n}", to=(other.uid,))[1] for n, other in enumerate(others)]
    as_ada = Api(token_for("ada"))
    first = as_ada.get("/api/v1/conversations", {"limit": 2})
    seen, page = [c["id"] for c in first.json()], first
    while link(page, "next"):
        page = as_ada.get(link(page, "next"))
        seen += [c["id"] for c in page.json()]
    assert seen == [str(cid) for cid in reversed(ids)]
    assert link(page, "next") is None
    back = as_ada.get(link(as_ada.get(link(first, "next")), "prev"))
    assert [c["id"] for c in back.json()] == [str(ids[4]), str(ids[3])]
    # A new message moves its conversation to the top.
    services.send_message(uid=others[0].uid, message="back to you", conversation_id=ids[0])
    assert as_ada.get("/api/v1/conversations", {"limit": 1}).json()[0]["id"] == str(ids[0])


def test_conversations_need_their_scopes():
    person("ada")
    reader = Api(token_for("ada", scope="read"))
    assert reader.get("/api/v1/conversations").status_code == 200
    assert reader.post("/api/v1/conversations/1/read").status_code == 403
    assert reader.delete("/api/v1/conversations/1").status_code == 403
    assert Api(None).get("/api/v1/conversations").status_code == 401

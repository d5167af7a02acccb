"""Direct messages on the pages (issue 19): /messages, /messages/<id> with its box "Your message" and Send, a
profile's Message button, the header's "Messages N", and the refusals (blocks, private accounts, strangers)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from socialsite.tests.people import logged_in
from timelines import selectors, services

pytestmark = pytest.mark.django_db


def messages_link(html: str) -> str:
    """The header link's text: "Messages" or "Messages N"."""
    found = re.search(r'<a href="/messages" id="messages-link">(.*?)</a>', html, re.S)
    assert found, "no Messages link in the header"
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


def test_a_profile_message_button_opens_a_conversation_and_the_other_side_sees_it():
    alice, _ = logged_in("alice")
    bob, bob_uid = logged_in("bob")
    profile = alice.get("/@bob").content.decode()
    assert '<a class="button message-button" href="/@bob/message">Message</a>' in profile
    box = alice.get("/@bob/message").content.decode()
    assert '<label for="message-box">Your message</label>' in box and ">Send</button>" in box
    sent = alice.post("/@bob/message", {"message": "hello bob"})
    assert sent.status_code == 302
    conversation_url = sent["Location"]
    assert re.fullmatch(r"/messages/\d+", conversation_url)
    assert "hello bob" in alice.get(conversation_url).content.decode()

    home = bob.get("/").content.decode()
    assert messages_link(home) == "Messages 1"
    inbox = bob.get("/messages").content.decode()
    assert "Alice" in inbox and "hello bob" in inbox and "Unread" in inbox
    page = bob.get(conversation_url).content.decode()
    assert "hello bob" in page and 'hx-post="' + conversation_url + '/read"' in page
    assert bob.post(conversation_url + "/read").status_code == 302
    assert messages_link(bob.get("/").content.decode()) == "Messages"
    answered = bob.post(conversation_url, {"message": "hi alice"})
    assert answered.status_code == 302 and answered["Location"] == conversation_url
    shown = alice.get(conversation_url).content.decode()
    assert shown.index("hi alice") < shown.index("hello bob")  # newest first
    assert messages_link(alice.get("/").content.decode()) == "Messages 1"
    assert selectors.get_unread_conversations(uid=bob_uid) == 0


def test_a_message_shows_nowhere_else(make_user):
    """The leak test of messages: on no profile, home, list, tag, search, public page or stranger's notifications;
    in the participants' notifications as "mentioned you"."""
    alice, alice_uid = logged_in("alice")
    bob, bob_uid = logged_in("bob")
    carol, carol_uid = logged_in("carol")
    for follower in (bob_uid, carol_uid):
        services.follow_user(uid=follower, other_uid=alice_uid)
    services.follow_user(uid=alice_uid, other_uid=bob_uid)
    for owner in (bob_uid, carol_uid):
        list_id = services.create_user_list(uid=owner, name="people")
        services.follow_user_list(uid=owner, other_uid=alice_uid, list_id=list_id)
    alice.post("/@bob/message", {"message": "zebrasecret #hushtag"})
    [summary] = selectors.get_conversations(uid=bob_uid)
    shown = f'data-status="{summary.last.status.id}"'
    services.like_status(uid=bob_uid, status_id=summary.last.status.id)
    places = ["/", "/@alice", "/@bob", "/tags/hushtag", "/search?q=zebrasecret", "/@alice/likes", "/@bob/likes"]
    places += [f"/lists/{list_id}" for list_id in (1, 2, 3)]
    for name, client in (("alice", alice), ("bob", bob), ("carol", carol), ("anonymous", Client())):
        for url in places:
            response = client.get(url)
            assert shown not in response.content.decode(), (name, url)
    assert "zebrasecret" in bob.get("/notifications").content.decode()
    assert "mentioned you" in bob.get("/notifications").content.decode()
    assert "zebrasecret" not in carol.get("/notifications").content.decode()
    assert "liked your post" in alice.get("/notifications").content.decode()  # a participant's own
    assert "zebrasecret" not in carol.get("/messages").content.decode()


def test_strangers_get_404_for_a_conversation_and_cannot_send_or_mark_it():
    alice, _ = logged_in("alice")
    carol, _ = logged_in("carol")
    logged_in("bob")
    url = alice.post("/@bob/message", {"message": "private words"})["Location"]
    assert carol.get(url).status_code == 404
    assert carol.post(url, {"message": "let me in"}).status_code == 404
    assert carol.post(url + "/read").status_code == 404
    assert carol.get("/messages/99999999").status_code == 404
    assert Client().get(url).status_code == 302  # to the log-in page
    assert alice.get("/messages?before=nan").status_code == 400


def test_blocks_and_private_accounts_refuse_with_a_readable_error():
    alice, alice_uid = logged_in("alice")
    _, bob_uid = logged_in("bob")
    _, carol_uid = logged_in("carol")
    services.block_user(uid=bob_uid, other_uid=alice_uid)
    refused = alice.post("/@bob/message", {"message": "hey"})
    assert refused.status_code == 400
    assert "You cannot message @bob." in refused.content.decode()
    assert "/@bob/message" not in alice.get("/@bob").content.decode()  # no button where a block stands
    services.set_private(uid=carol_uid, private=True)
    assert "You cannot message @carol." in alice.post("/@carol/message", {"message": "hey"}).content.decode()
    services.follow_user(uid=carol_uid, other_uid=alice_uid)
    assert alice.post("/@carol/message", {"message": "hey"}).status_code == 302
    empty = alice.post("/@carol/message", {"message": "   "})
    assert empty.status_code == 400 and 'aria-invalid="true"' in empty.content.decode()

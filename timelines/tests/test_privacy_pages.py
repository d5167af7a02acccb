"""Private accounts, follow requests, blocks and mutes as a person uses them, with Django's test client."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from timelines import selectors, services
from timelines.tests.test_views import logged_in, status_ids

pytestmark = pytest.mark.django_db


def buttons(html: str) -> list[str]:
    return re.findall(r"<button[^>]*>([^<]+)</button>", html)


def test_a_private_account_from_its_settings_to_an_approved_follower():
    alice, alice_uid = logged_in("alice", "Alice")
    bob, bob_uid = logged_in("bob", "Bob")
    page = alice.get("/settings/profile").content.decode()
    assert re.search(r'<label for="id_private">Private account</label>', page)
    assert alice.post("/settings/profile", {"name": "Alice", "bio": "", "private": "on"}).status_code == 302
    secret = services.post_status(uid=alice_uid, message="for my followers")

    profile = bob.get("/@alice").content.decode()
    assert "This account is private" in profile and "for my followers" not in profile
    assert "Follow" in buttons(profile)
    bob.post("/@alice/follow")
    assert "Requested" in buttons(bob.get("/@alice").content.decode())
    assert re.search(r'id="follow-requests-link">Follow requests <span class="badge">1</span>',
                     alice.get("/").content.decode())  # fmt: skip
    requests_page = alice.get("/follow-requests").content.decode()
    assert buttons(requests_page) == ["Log out", "Approve", "Reject"]
    assert alice.post("/follow-requests/@bob/approve").status_code == 302
    assert secret in status_ids(bob.get("/"))
    assert "Unfollow" in buttons(bob.get("/@alice").content.decode())
    assert "for my followers" not in Client().get("/@alice").content.decode()
    assert selectors.is_following(uid=bob_uid, other_uid=alice_uid)


def test_clicking_requested_withdraws_the_request():
    _alice, alice_uid = logged_in("alice", "Alice")
    bob, _ = logged_in("bob", "Bob")
    services.set_private(uid=alice_uid, private=True)
    bob.post("/@alice/follow")
    bob.post("/@alice/unfollow")
    assert selectors.get_follow_requests(uid=alice_uid) == []
    assert "Follow" in buttons(bob.get("/@alice").content.decode())


def test_block_and_mute_buttons_and_their_settings_pages():
    alice, alice_uid = logged_in("alice", "Alice")
    bob, bob_uid = logged_in("bob", "Bob")
    services.follow_user(uid=alice_uid, other_uid=bob_uid)
    post = services.post_status(uid=bob_uid, message="bob here")
    profile = alice.get("/@bob").content.decode()
    assert {"Mute", "Block"} <= set(buttons(profile))
    assert alice.post("/@bob/mute", {"next": "/@bob"}).status_code == 302
    assert post not in status_ids(alice.get("/")) and post in status_ids(alice.get("/@bob"))
    assert "Unmute" in buttons(alice.get("/@bob").content.decode())
    assert "@bob" in alice.get("/settings/mutes").content.decode()
    alice.post("/@bob/unmute")
    alice.post("/@bob/block")
    blocking_view = alice.get("/@bob").content.decode()
    assert "Unblock" in buttons(blocking_view)
    assert "You blocked @bob." in blocking_view and "This account is private" not in blocking_view
    assert post not in status_ids(alice.get("/@bob"))
    blocked_view = bob.get("/@alice").content.decode()
    assert "You are blocked" in blocked_view and "Follow" not in buttons(blocked_view)
    assert bob.post("/@alice/follow").status_code == 403
    assert "Unblock" in buttons(alice.get("/settings/blocks").content.decode())
    alice.post("/@bob/unblock", {"next": "/settings/blocks"})
    assert selectors.get_blocked_users(uid=alice_uid) == []
    assert alice.post("/@alice/block").status_code == 400  # not yourself

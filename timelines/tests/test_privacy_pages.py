"""Private accounts, follow requests, blocks and mutes as a person uses them, with Django's test client."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from timelines import exceptions, selectors, services
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


def test_a_private_profile_shows_no_posts_to_anonymous_visitors():
    """Its posts from before it turned private included: a private profile shows posts to followers only."""
    alice, alice_uid = logged_in("alice", "Alice")
    earlier = services.post_status(uid=alice_uid, message="said while public")
    services.set_private(uid=alice_uid, private=True)
    services.post_status(uid=alice_uid, message="said while private")
    page = Client().get(reverse("timelines:profile", kwargs={"login": "alice"}))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="private-notice"' in html and status_ids(page) == [] and "said while" not in html
    assert earlier in status_ids(alice.get(reverse("timelines:profile", kwargs={"login": "alice"})))


def test_a_post_you_may_not_see_cannot_be_liked_reposted_or_replied_to_it_is_404_as_if_missing():
    """A private account's post to a stranger, and posts across a block (both ways): Like, Unlike, Repost, Undo
    repost and Reply answer 404 exactly as for a post that does not exist (Unlike and Undo repost answered a
    302), and the post gets no like, repost, reply or notification."""
    alice, alice_uid = logged_in("alice", "Alice")
    bob, bob_uid = logged_in("bob", "Bob")
    _carol, carol_uid = logged_in("carol", "Carol")
    services.set_private(uid=alice_uid, private=True)
    private = services.post_status(uid=alice_uid, message="followers only")
    blocking = services.post_status(uid=carol_uid, message="carol blocks bob")
    services.block_user(uid=carol_uid, other_uid=bob_uid)
    blocked = services.post_status(uid=bob_uid, message="bob blocks this one")
    missing = 10**9

    def answers(status_id: int, login: str) -> list[tuple[int, bool]]:
        responses = [
            bob.post(f"/statuses/{status_id}/like"),
            bob.post(f"/statuses/{status_id}/unlike"),
            bob.post(f"/statuses/{status_id}/repost"),
            bob.post(f"/statuses/{status_id}/unrepost"),
            bob.post(f"/@{login}/{status_id}/reply", {"message": "sneaking in"}),
            bob.get(f"/@{login}/{status_id}/reply"),
        ]
        return [
            (response.status_code, exceptions.STATUS_NOT_FOUND in response.content.decode()) for response in responses
        ]

    nothing = answers(missing, "alice")
    assert set(nothing) == {(404, True)}
    for status_id, login in ((private, "alice"), (blocking, "carol")):
        assert answers(status_id, login) == nothing, login
        status = selectors.get_status(status_id=status_id)
        assert (status.like_count, status.repost_count, status.reply_count) == (0, 0, 0)
    assert selectors.get_notifications(uid=alice_uid) == [] and selectors.get_notifications(uid=carol_uid) == []
    assert [entry.status.id for entry in selectors.get_status_messages(uid=bob_uid, timeline="profile")] == [blocked]

    # Blocking works both ways: carol cannot act on bob's posts either.
    services.block_user(uid=bob_uid, other_uid=carol_uid)
    with pytest.raises(exceptions.StatusNotFound):
        services.like_status(uid=carol_uid, status_id=blocked)
    # An approved follower may like and reply; a private post still cannot be reposted (403, it is visible).
    services.unblock_user(uid=bob_uid, other_uid=carol_uid)
    services.follow_user(uid=bob_uid, other_uid=alice_uid)
    services.approve_follow_request(uid=alice_uid, requester_uid=bob_uid)
    assert bob.post(f"/statuses/{private}/like").status_code == 302
    assert bob.post(f"/statuses/{private}/repost").status_code == 403
    assert bob.post(f"/@alice/{private}/reply", {"message": "@alice hello"}).status_code == 302
    status = selectors.get_status(status_id=private)
    assert (status.like_count, status.repost_count, status.reply_count) == (1, 0, 1)
    assert alice.get(f"/@alice/{private}").status_code == 200


def test_a_private_accounts_likes_and_follow_lists_show_to_approved_followers_only():
    alice, alice_uid = logged_in("alice", "Alice")
    bob, bob_uid = logged_in("bob", "Bob")
    carol, _ = logged_in("carol", "Carol")
    _erin, erin_uid = logged_in("erin", "Erin")
    liked = services.post_status(uid=erin_uid, message="erin in public")
    services.set_private(uid=alice_uid, private=True)
    services.follow_user(uid=bob_uid, other_uid=alice_uid)
    services.approve_follow_request(uid=alice_uid, requester_uid=bob_uid)
    services.follow_user(uid=alice_uid, other_uid=erin_uid)
    services.like_status(uid=alice_uid, status_id=liked)
    pages = {
        name: reverse(f"timelines:{name}", kwargs={"login": "alice"}) for name in ("likes", "followers", "following")
    }
    for reader in (carol, Client()):
        for name, url in pages.items():
            html = reader.get(url).content.decode()
            assert 'id="private-notice"' in html, name
            assert status_ids(reader.get(url)) == [] and "@bob" not in html and "@erin" not in html, name
    for reader in (bob, alice):
        assert status_ids(reader.get(pages["likes"])) == [liked]
        assert "@bob" in reader.get(pages["followers"]).content.decode()
        assert "@erin" in reader.get(pages["following"]).content.decode()

"""Visibility per post on the pages (issue 19): the "Visibility" menu of the post box and of the reply box,
the "Default post visibility" setting, each non-public post's label, and reposts of what cannot be reposted.
"""

from __future__ import annotations

import re

import pytest

from socialsite.tests.people import logged_in
from timelines import exceptions, selectors, services

pytestmark = pytest.mark.django_db

SELECT = re.compile(
    r'<label for="([^"]+)">Visibility</label>\s*<select name="visibility" id="\1"[^>]*>(.*?)</select>', re.S
)


def menu(html: str) -> tuple[list[str], str | None]:
    """The labels the first Visibility menu offers, and the one selected."""
    found = SELECT.search(html)
    assert found, "no menu labelled Visibility"
    options = re.findall(r'<option value="[^"]+"( selected)?>([^<]+)</option>', found.group(2))
    return [label for _, label in options], next((label for selected, label in options if selected), None)


def label_of(html: str, status_id: int) -> str | None:
    """The visibility a post shows on a page (its words for screen readers), None when it shows none."""
    article = re.search(rf'<article[^>]* data-status="{status_id}".*?</article>', html, re.S)
    assert article, f"post {status_id} is not on the page"
    found = re.search(r'<span class="visually-hidden">([^<]+)</span></span> <a class="permalink"', article.group(0))
    return found.group(1) if found else None


ALL = ["Public", "Unlisted", "Followers only", "Mentioned people only"]


def test_the_post_box_offers_the_four_levels_starting_on_the_accounts_default():
    client, uid = logged_in("alice")
    assert menu(client.get("/").content.decode()) == (ALL, "Public")
    services.update_profile(uid=uid, default_visibility="unlisted")
    assert menu(client.get("/").content.decode()) == (ALL, "Unlisted")


def test_posting_with_the_menu_stores_the_level_and_the_post_shows_it():
    client, uid = logged_in("alice")
    response = client.post("/compose", {"message": "just for followers", "visibility": "private"})
    assert response.status_code == 302
    [entry] = selectors.get_status_messages(uid=uid)
    assert entry.status.visibility == "private"
    home = client.get("/").content.decode()
    assert label_of(home, entry.status.id) == "Followers only"
    client.post("/compose", {"message": "for everyone", "visibility": "public"})
    public = selectors.get_status_messages(uid=uid)[0].status.id
    assert label_of(client.get("/").content.decode(), public) is None


def test_a_private_account_starts_on_followers_only_and_cannot_post_publicly():
    client, uid = logged_in("alice")
    services.set_private(uid=uid, private=True)
    assert menu(client.get("/").content.decode()) == (["Followers only", "Mentioned people only"], "Followers only")
    response = client.post("/compose", {"message": "hello world", "visibility": "public"})
    assert response.status_code == 400
    assert exceptions.PRIVATE_ACCOUNT_VISIBILITY in response.content.decode()
    assert selectors.get_user(uid=uid).posts == 0


def test_an_unknown_level_or_a_direct_post_to_nobody_is_a_form_error():
    client, uid = logged_in("alice")
    response = client.post("/compose", {"message": "hello", "visibility": "friends"})
    assert response.status_code == 400
    response = client.post("/compose", {"message": "hello nobody", "visibility": "direct"})
    assert response.status_code == 400 and exceptions.NO_RECIPIENT in response.content.decode()
    assert selectors.get_user(uid=uid).posts == 0


def test_the_reply_box_starts_on_the_parents_level_and_refuses_anything_wider():
    _, alice = logged_in("alice")
    bob_client, bob = logged_in("bob")
    services.follow_user(uid=bob, other_uid=alice)
    parent = services.post_status(uid=alice, message="followers only", visibility="private")
    page = bob_client.get(f"/@alice/{parent}").content.decode()
    assert menu(page) == (["Followers only", "Mentioned people only"], "Followers only")
    assert menu(bob_client.get(f"/@alice/{parent}/reply").content.decode())[1] == "Followers only"
    response = bob_client.post(f"/@alice/{parent}/reply", {"message": "@alice yes", "visibility": "public"})
    assert response.status_code == 400
    assert "it cannot be “Public”" in response.content.decode()
    response = bob_client.post(f"/@alice/{parent}/reply", {"message": "@alice yes"})
    assert response.status_code == 302
    reply = selectors.get_status_messages(uid=bob, timeline="profile", viewer_uid=bob)[0].status
    assert reply.in_reply_to == parent and reply.visibility == "private"


def test_the_default_post_visibility_setting():
    client, uid = logged_in("alice")
    page = client.get("/settings/profile").content.decode()
    assert "Default post visibility" in page
    form = {"name": "Alice", "bio": "", "default_visibility": "unlisted"}
    assert client.post("/settings/profile", form).status_code == 302
    assert selectors.get_user(uid=uid).default_visibility == "unlisted"
    direct = {**form, "private": "on", "default_visibility": "direct"}
    assert client.post("/settings/profile", direct).status_code == 302
    # A private account cannot pick a wider default.
    response = client.post("/settings/profile", {**direct, "default_visibility": "unlisted"})
    assert response.status_code == 400
    assert exceptions.PRIVATE_ACCOUNT_VISIBILITY in response.content.decode()
    assert selectors.get_user(uid=uid).default_visibility == "direct"


def test_a_direct_post_opens_for_the_people_it_mentions_only():
    alice_client, alice = logged_in("alice")
    bob_client, _ = logged_in("bob")
    carol_client, _ = logged_in("carol")
    secret = services.post_status(uid=alice, message="@bob a word", visibility="direct")
    page = bob_client.get(f"/@alice/{secret}")
    assert page.status_code == 200 and label_of(page.content.decode(), secret) == "Mentioned people only"
    assert carol_client.get(f"/@alice/{secret}").status_code == 404
    assert alice_client.get(f"/@alice/{secret}").status_code == 200


def test_only_public_and_unlisted_posts_show_a_repost_button():
    _, alice = logged_in("alice")
    bob_client, bob = logged_in("bob")
    services.follow_user(uid=bob, other_uid=alice)
    posts = {
        level: services.post_status(uid=alice, message=f"a {level} post", visibility=level)
        for level in ("public", "unlisted", "private")
    }
    home = bob_client.get("/").content.decode()
    for level, status_id in posts.items():
        shown = f'action="/statuses/{status_id}/repost"' in home
        assert shown == (level != "private"), level
    assert label_of(home, posts["unlisted"]) == "Unlisted"
    response = bob_client.post(f"/statuses/{posts['private']}/repost")
    assert response.status_code == 403
    assert exceptions.CANNOT_REPOST_VISIBILITY in response.content.decode()


def test_posting_in_place_keeps_the_menu_on_the_accounts_default():
    client, uid = logged_in("alice")
    services.update_profile(uid=uid, default_visibility="unlisted")
    response = client.post("/compose", {"message": "quiet", "visibility": "private"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert menu(html) == (ALL, "Unlisted")  # a fresh box, back on the default
    assert label_of(html, selectors.get_status_messages(uid=uid)[0].status.id) == "Followers only"
    refused = client.post("/compose", {"message": "hello nobody", "visibility": "direct"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and menu(refused.content.decode())[1] == "Mentioned people only"


def test_turning_private_keeps_the_default_shown_and_starts_on_followers_only():
    client, uid = logged_in("alice")
    form = {"name": "Alice", "bio": "", "default_visibility": "public", "private": "on"}
    assert client.post("/settings/profile", form).status_code == 302
    me = selectors.get_user(uid=uid)
    assert me.private and me.default_visibility == "private"
    assert menu(client.get("/").content.decode()) == (["Followers only", "Mentioned people only"], "Followers only")
    # Public again: the account's own choice is back.
    services.update_profile(uid=uid, default_visibility="direct")
    services.set_private(uid=uid, private=False)
    assert selectors.get_user(uid=uid).default_visibility == "direct"


def test_a_reply_to_a_direct_post_names_everyone_it_reached():
    _, alice = logged_in("alice")
    bob_client, _ = logged_in("bob")
    logged_in("carol")
    secret = services.post_status(uid=alice, message="@bob @carol a plan", visibility="direct")
    box = bob_client.get(f"/@alice/{secret}/reply").content.decode()
    assert re.search(r"<textarea[^>]*>@alice @carol </textarea>", box)
    assert menu(box) == (["Mentioned people only"], "Mentioned people only")

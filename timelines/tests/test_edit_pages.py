"""Editing a post on the pages (issue 19): Edit on one's own posts, the edit page and the form in place (htmx),
Save, "Edited" linking to the history page, and the history of a post one may not see being a 404."""

from __future__ import annotations

import re

import pytest

from socialsite.tests.people import logged_in
from timelines import exceptions, limits, selectors, services

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def article(html: str, status_id: int) -> str:
    found = re.search(rf'<article[^>]* id="status-{status_id}".*?</article>', html, re.S)
    assert found, f"status {status_id} is not on the page"
    return found.group(0)


def test_own_posts_have_edit_and_others_do_not():
    alice, alice_uid = logged_in("alice")
    bob, bob_uid = logged_in("bob")
    services.follow_user(uid=bob_uid, other_uid=alice_uid)
    status_id = services.post_status(uid=alice_uid, message="mine")
    assert f'action="/@alice/{status_id}/edit"' in article(alice.get("/").content.decode(), status_id)
    assert "/edit" not in article(bob.get("/").content.decode(), status_id)


def test_without_javascript_the_edit_page_saves_and_the_post_shows_edited_with_its_history():
    alice, alice_uid = logged_in("alice")
    status_id = services.post_status(uid=alice_uid, message="helo")

    page = alice.get(f"/@alice/{status_id}/edit")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<label for="edit-' in html and ">Edit your post</label>" in html and ">helo</textarea>" in html
    assert ">Save</button>" in html
    assert f'hx-post="/@alice/{status_id}/edit"' not in html  # a plain form: its post is not on this page

    saved = alice.post(f"/@alice/{status_id}/edit", {"message": "hello"})
    assert saved.status_code == 302 and saved["Location"] == f"/@alice/{status_id}"
    shown = article(alice.get(f"/@alice/{status_id}").content.decode(), status_id)
    assert ">hello</p>" in shown
    assert re.search(rf'<a class="edited" href="/@alice/{status_id}/history"[^>]*>Edited <time', shown)

    history = alice.get(f"/@alice/{status_id}/history").content.decode()
    versions = re.findall(r'<p class="message">([^<]*)</p>', history)
    assert versions == ["hello", "helo"]
    assert "Current version" in history and "Original" in history


def test_in_place_the_form_replaces_the_text_and_save_gives_the_post_back():
    alice, alice_uid = logged_in("alice")
    status_id = services.post_status(uid=alice_uid, message="first")

    form = alice.get(f"/@alice/{status_id}/edit", {"next": "/"}, **HTMX)
    assert form.status_code == 200
    assert f'id="message-{status_id}"' in form.content.decode() and "<html" not in form.content.decode()
    assert f'hx-post="/@alice/{status_id}/edit"' in form.content.decode()

    saved = alice.post(f"/@alice/{status_id}/edit", {"message": "second", "next": "/"}, **HTMX)
    assert saved.status_code == 200
    assert saved["HX-Retarget"] == f"#status-{status_id}" and saved["HX-Reswap"] == "outerHTML"
    post = article(saved.content.decode(), status_id)
    assert ">second</p>" in post and "Edited" in post


@pytest.mark.parametrize(
    ("message", "error"),
    [("", exceptions.EMPTY_MESSAGE), ("x" * (limits.MAX_MESSAGE_LENGTH + 1), exceptions.MESSAGE_TOO_LONG)],
)
def test_an_empty_or_overlong_edit_is_a_form_error_and_changes_nothing(message, error):
    alice, alice_uid = logged_in("alice")
    status_id = services.post_status(uid=alice_uid, message="kept")
    for extra in ({}, HTMX):
        answer = alice.post(f"/@alice/{status_id}/edit", {"message": message}, **extra)
        assert answer.status_code == 400
        assert error in answer.content.decode()
    assert selectors.get_status(status_id=status_id).message == "kept"


def test_someone_elses_post_cannot_be_edited_and_a_missing_one_is_404():
    alice, alice_uid = logged_in("alice")
    bob, _ = logged_in("bob")
    status_id = services.post_status(uid=alice_uid, message="mine")
    assert bob.get(f"/@alice/{status_id}/edit").status_code == 403
    refused = bob.post(f"/@alice/{status_id}/edit", {"message": "taken over"})
    assert refused.status_code == 403 and exceptions.NOT_EDIT_OWNER in refused.content.decode()
    assert selectors.get_status(status_id=status_id).message == "mine"
    assert alice.post("/@alice/99999/edit", {"message": "x"}).status_code == 404
    assert bob.get("/@bob/99999/history").status_code == 404


def test_a_non_follower_cannot_see_the_history_of_a_followers_only_post():
    alice, alice_uid = logged_in("alice")
    bob, bob_uid = logged_in("bob")
    carol, _ = logged_in("carol")
    services.follow_user(uid=bob_uid, other_uid=alice_uid)
    status_id = services.post_status(uid=alice_uid, message="Followers only", visibility="private")
    services.edit_status(uid=alice_uid, status_id=status_id, message="Followers only, edited")

    assert bob.get(f"/@alice/{status_id}/history").status_code == 200
    for outsider in (carol, alice.__class__()):
        answer = outsider.get(f"/@alice/{status_id}/history")
        assert answer.status_code == 404
        assert "Followers only" not in answer.content.decode()


def test_a_reposter_reads_that_the_post_they_reposted_was_edited():
    _, alice_uid = logged_in("alice", "Alice Liddell")
    bob, bob_uid = logged_in("bob")
    status_id = services.post_status(uid=alice_uid, message="worth sharing")
    services.repost_status(uid=bob_uid, status_id=status_id)
    services.edit_status(uid=alice_uid, status_id=status_id, message="worth sharing, fixed")
    page = bob.get("/notifications").content.decode()
    assert re.search(r"Alice Liddell</a>\s*edited a post you reposted", page)
    assert "worth sharing, fixed" in page

"""Bookmarks through the client API: bookmark and unbookmark answer with the post (``bookmarked`` for the caller),
``/api/v1/bookmarks`` lists them newest bookmark first with Mastodon's ``Link`` pages, through the policy at read,
and the scopes are Mastodon's (``read:bookmarks``, ``write:bookmarks``)."""

from __future__ import annotations

import re

import pytest

from api.tests.helpers import Api, person, token_for
from timelines import services

pytestmark = pytest.mark.django_db


def link(response, rel: str) -> str | None:
    found = re.search(rf'<([^>]+)>; rel="{rel}"', response.get("Link", ""))
    return found.group(1).replace("http://testserver", "") if found else None


def ids(response) -> list[str]:
    return [status["id"] for status in response.json()]


def test_bookmarking_answers_the_post_marked_for_the_caller_only():
    ada, bob = person("ada"), person("bob")
    post = services.post_status(uid=ada.uid, message="keep this")
    as_bob, as_ada = Api(token_for("bob")), Api(token_for("ada"))
    answer = as_bob.post(f"/api/v1/statuses/{post}/bookmark")
    assert answer.status_code == 200, answer.content
    assert answer.json()["id"] == str(post) and answer.json()["bookmarked"] is True
    assert as_bob.get(f"/api/v1/statuses/{post}").json()["bookmarked"] is True
    assert as_ada.get(f"/api/v1/statuses/{post}").json()["bookmarked"] is False
    assert ids(as_bob.get("/api/v1/bookmarks")) == [str(post)]
    assert as_ada.get("/api/v1/bookmarks").json() == []
    # Marked in the timelines too, through the page read.
    services.follow_user(uid=bob.uid, other_uid=ada.uid)
    assert as_bob.get("/api/v1/timelines/home").json()[0]["bookmarked"] is True
    gone = as_bob.post(f"/api/v1/statuses/{post}/unbookmark")
    assert gone.status_code == 200 and gone.json()["bookmarked"] is False
    assert as_bob.get("/api/v1/bookmarks").json() == []


def test_a_reblog_is_bookmarked_as_its_original():
    ada, _ = person("ada"), person("bob")
    carol = person("carol")
    post = services.post_status(uid=ada.uid, message="shared")
    as_carol, as_bob = Api(token_for("carol")), Api(token_for("bob"))
    wrapper = as_carol.post(f"/api/v1/statuses/{post}/reblog").json()
    assert wrapper["id"] != str(post) and carol.uid
    answer = as_bob.post(f"/api/v1/statuses/{wrapper['id']}/bookmark").json()
    assert answer["id"] == str(post) and answer["bookmarked"] is True
    assert ids(as_bob.get("/api/v1/bookmarks")) == [str(post)]


def test_bookmarks_page_by_link_headers_without_repeating_or_skipping():
    ada, _ = person("ada"), person("bob")
    posts = [services.post_status(uid=ada.uid, message=f"post {n}") for n in range(5)]
    as_bob = Api(token_for("bob"))
    for status_id in posts:
        assert as_bob.post(f"/api/v1/statuses/{status_id}/bookmark").status_code == 200
    first = as_bob.get("/api/v1/bookmarks", {"limit": 2})
    assert ids(first) == [str(posts[4]), str(posts[3])]
    seen, page = ids(first), first
    while link(page, "next"):
        page = as_bob.get(link(page, "next"))
        seen += ids(page)
    assert seen == [str(status_id) for status_id in reversed(posts)]
    assert link(page, "next") is None  # the last page has no next, so clients stop
    # fetch_previous from the second page: the newer ones above it, newest first.
    second = as_bob.get(link(first, "next"))
    back = as_bob.get(link(second, "prev"))
    assert ids(back) == [str(posts[4]), str(posts[3])]


def test_a_bookmark_of_a_post_one_can_no_longer_see_is_left_out():
    ada, bob = person("ada"), person("bob")
    services.follow_user(uid=bob.uid, other_uid=ada.uid)
    secret = services.post_status(uid=ada.uid, message="followers only", visibility="private")
    as_bob = Api(token_for("bob"))
    assert as_bob.post(f"/api/v1/statuses/{secret}/bookmark").status_code == 200
    services.unfollow_user(uid=bob.uid, other_uid=ada.uid)
    assert as_bob.get("/api/v1/bookmarks").json() == []
    refused = as_bob.post(f"/api/v1/statuses/{secret}/unbookmark")
    assert refused.status_code == 404 and refused.json() == {"error": "Record not found"}
    assert as_bob.post("/api/v1/statuses/999999/bookmark").status_code == 404
    assert as_bob.post("/api/v1/statuses/abc/bookmark").status_code == 404


def test_bookmarks_need_their_scopes():
    ada = person("ada")
    post = services.post_status(uid=ada.uid, message="x")
    reader = Api(token_for("ada", scope="read"))
    assert reader.get("/api/v1/bookmarks").status_code == 200
    assert reader.post(f"/api/v1/statuses/{post}/bookmark").status_code == 403
    statuses_only = Api(token_for("ada", scope="read:statuses write:bookmarks"))
    assert statuses_only.get("/api/v1/bookmarks").status_code == 403
    assert statuses_only.post(f"/api/v1/statuses/{post}/bookmark").status_code == 200
    assert Api(None).get("/api/v1/bookmarks").status_code == 401

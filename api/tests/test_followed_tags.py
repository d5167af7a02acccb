"""Followed tags over the API (issue 20): ``POST /api/v1/tags/:name/follow`` and ``unfollow``, ``GET
/api/v1/followed_tags`` with Link pages, ``following`` on Tag entities (the tag itself and search), and a followed
tag's public posts in the caller's home timeline."""

from __future__ import annotations

import re

import pytest

from api.tests.helpers import Api, person, token_for
from timelines import services

pytestmark = pytest.mark.django_db


def link(response, rel: str) -> str | None:
    found = re.search(rf'<([^>]+)>; rel="{rel}"', response.get("Link", ""))
    return found.group(1).replace("http://testserver", "") if found else None


def test_following_a_tag_brings_its_public_posts_home_and_says_so_on_the_tag():
    ada, bob = person("ada"), person("bob")
    api = Api(token_for("bob"))
    assert api.get("/api/v1/tags/Redis").json() == {
        "name": "redis",
        "url": "http://testserver/tags/redis",
        "history": [],
        "following": False,
    }
    followed = api.post("/api/v1/tags/Redis/follow")
    assert followed.status_code == 200
    assert followed.json()["name"] == "redis" and followed.json()["following"] is True
    assert api.get("/api/v1/tags/redis").json()["following"] is True
    assert api.post("/api/v1/tags/redis/follow").status_code == 200  # again: no change, no error
    tagged = services.post_status(uid=ada.uid, message="all about #redis")
    services.post_status(uid=ada.uid, message="#redis unlisted", visibility="unlisted")
    services.post_status(uid=ada.uid, message="untagged")
    home = api.get("/api/v1/timelines/home").json()
    assert [status["id"] for status in home] == [str(tagged)]
    assert home[0]["tags"] == [{"name": "redis", "url": "http://testserver/tags/redis"}]
    search = api.get("/api/v2/search", {"q": "#redis", "type": "hashtags"}).json()
    assert search["hashtags"][0]["following"] is True
    # Another person's view of the same tag is their own.
    assert Api(token_for("ada")).get("/api/v1/tags/redis").json()["following"] is False
    unfollowed = api.post("/api/v1/tags/redis/unfollow")
    assert unfollowed.status_code == 200 and unfollowed.json()["following"] is False
    services.post_status(uid=ada.uid, message="more #redis")
    assert [status["id"] for status in api.get("/api/v1/timelines/home").json()] == [str(tagged)]
    assert bob.uid


def test_followed_tags_are_listed_most_recent_first_page_by_page():
    person("bob")
    api = Api(token_for("bob"))
    names = ["one", "two", "three", "four", "five"]
    for name in names:
        assert api.post(f"/api/v1/tags/{name}/follow").status_code == 200
    first = api.get("/api/v1/followed_tags", {"limit": 2})
    seen, page = [tag["name"] for tag in first.json()], first
    assert all(tag["following"] for tag in first.json())
    while link(page, "next"):
        page = api.get(link(page, "next"))
        seen += [tag["name"] for tag in page.json()]
    assert seen == list(reversed(names))
    back = api.get(link(api.get(link(first, "next")), "prev"))
    assert [tag["name"] for tag in back.json()] == ["five", "four"]
    assert Api(token_for("bob", scope="read:statuses")).get("/api/v1/followed_tags").status_code == 403


def test_bad_tags_and_missing_scopes_are_refused():
    person("bob")
    api = Api(token_for("bob"))
    for bad in ("123", "not%20a%20tag", "x" * 300):
        response = api.post(f"/api/v1/tags/{bad}/follow")
        assert response.status_code == 404 and response.json() == {"error": "Record not found"}
    reader = Api(token_for("bob", scope="read"))
    assert reader.post("/api/v1/tags/redis/follow").status_code == 403
    assert Api(None).post("/api/v1/tags/redis/follow").status_code == 401
    assert api.get("/api/v1/followed_tags").json() == []

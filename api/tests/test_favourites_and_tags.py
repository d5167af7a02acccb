"""``/api/v1/favourites`` (the caller's likes, most recent first, Link pages), and unknown API paths answering
Mastodon's JSON 404 rather than a page (tags: ``test_followed_tags``)."""

from __future__ import annotations

import re

import pytest

from api.tests.helpers import Api, person, token_for
from timelines import services

pytestmark = pytest.mark.django_db


def link(response, rel: str) -> str | None:
    found = re.search(rf'<([^>]+)>; rel="{rel}"', response.get("Link", ""))
    return found.group(1).replace("http://testserver", "") if found else None


def test_favourites_list_the_callers_likes_most_recent_first_page_by_page():
    ada, bob = person("ada"), person("bob")
    posts = [services.post_status(uid=ada.uid, message=f"post {n}") for n in range(5)]
    as_bob = Api(token_for("bob"))
    # Liked in another order than posted: the list follows the likes.
    order = [posts[2], posts[0], posts[4], posts[1], posts[3]]
    for status_id in order:
        assert as_bob.post(f"/api/v1/statuses/{status_id}/favourite").status_code == 200
    first = as_bob.get("/api/v1/favourites", {"limit": 2})
    seen, page = [s["id"] for s in first.json()], first
    assert all(status["favourited"] for status in first.json())
    while link(page, "next"):
        page = as_bob.get(link(page, "next"))
        seen += [s["id"] for s in page.json()]
    assert seen == [str(status_id) for status_id in reversed(order)]
    back = as_bob.get(link(as_bob.get(link(first, "next")), "prev"))
    assert [s["id"] for s in back.json()] == [str(order[4]), str(order[3])]
    assert Api(token_for("ada")).get("/api/v1/favourites").json() == [] and bob.uid
    services.delete_status(uid=ada.uid, status_id=order[4])
    assert str(order[4]) not in [s["id"] for s in as_bob.get("/api/v1/favourites").json()]


def test_favourites_need_read_favourites():
    person("ada")
    assert Api(token_for("ada", scope="read:statuses")).get("/api/v1/favourites").status_code == 403
    assert Api(None).get("/api/v1/favourites").status_code == 401


def test_unknown_api_paths_answer_json_not_a_page():
    response = Api(None).get("/api/v1/not_a_thing")
    assert response.status_code == 404
    assert response.json() == {"error": "Record not found"}
    assert response["Access-Control-Allow-Origin"] == "*"
    assert Api(None).get("/not-a-page").get("Content-Type", "").startswith("text/html")

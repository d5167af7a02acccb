"""A token acts exactly as its person would in the browser: a post its person may not see is
``404 Record not found`` through every endpoint that takes a post id, and never appears in a list."""

from __future__ import annotations

import pytest

from api.tests.helpers import Api, person, token_for
from timelines import services

pytestmark = pytest.mark.django_db

NOT_FOUND = {"error": "Record not found"}
POST_ACTIONS = ("favourite", "unfavourite", "reblog", "unreblog", "bookmark", "unbookmark")


@pytest.fixture
def world():
    """Ada posts "for followers only" (Mastodon's private visibility); Bob follows her, Mallory does not. Carol's
    account is private, with a post and a tag."""
    ada, bob, carol = person("ada"), person("bob"), person("carol")
    person("mallory")
    services.follow_user(uid=bob.uid, other_uid=ada.uid)
    services.set_private(uid=carol.uid, private=True)
    ada_api = Api(token_for("ada"))
    hidden = ada_api.post("/api/v1/statuses", {"status": "only #followers see this", "visibility": "private"})
    assert hidden.status_code == 200, hidden.content
    carol_post = services.post_status(uid=carol.uid, message="private account #followers")
    return {
        "ada": ada,
        "carol": carol,
        "ada_post": hidden.json(),
        "carol_post": str(carol_post),
        "bob": Api(token_for("bob")),
        "mallory": Api(token_for("mallory")),
    }


def test_a_followers_only_post_reaches_followers(world):
    post = world["ada_post"]
    assert post["visibility"] == "private"
    bob = world["bob"]
    assert bob.get(f"/api/v1/statuses/{post['id']}").json()["id"] == post["id"]
    assert [item["id"] for item in bob.get("/api/v1/timelines/home").json()] == [post["id"]]


@pytest.mark.parametrize("which", ["ada_post", "carol_post"])
def test_someone_elses_private_post_is_404_everywhere(world, which):
    mallory = world["mallory"]
    status_id = world[which] if isinstance(world[which], str) else world[which]["id"]
    for api in (mallory, Api(None)):
        assert api.get(f"/api/v1/statuses/{status_id}").json() == NOT_FOUND
        assert api.get(f"/api/v1/statuses/{status_id}/context").json() == NOT_FOUND
    for action in POST_ACTIONS:
        response = mallory.post(f"/api/v1/statuses/{status_id}/{action}")
        assert (response.status_code, response.json()) == (404, NOT_FOUND), action
    deleted = mallory.delete(f"/api/v1/statuses/{status_id}")
    assert (deleted.status_code, deleted.json()) == (404, NOT_FOUND)
    reply = mallory.post("/api/v1/statuses", {"status": "a reply", "in_reply_to_id": status_id})
    assert (reply.status_code, reply.json()) == (404, NOT_FOUND)


def test_private_posts_appear_in_no_list_for_others(world):
    mallory = world["mallory"]
    hidden = {world["ada_post"]["id"], world["carol_post"]}
    lists = [
        mallory.get("/api/v1/timelines/home").json(),
        mallory.get("/api/v1/timelines/tag/followers").json(),
        Api(None).get("/api/v1/timelines/tag/followers").json(),
        mallory.get(f"/api/v1/accounts/{world['ada'].uid}/statuses").json(),
        mallory.get(f"/api/v1/accounts/{world['carol'].uid}/statuses").json(),
        Api(None).get(f"/api/v1/accounts/{world['carol'].uid}/statuses").json(),
    ]
    for statuses in lists:
        assert not hidden & {item["id"] for item in statuses}


def test_a_follower_cannot_reblog_a_followers_only_post(world):
    response = world["bob"].post(f"/api/v1/statuses/{world['ada_post']['id']}/reblog")
    assert response.status_code == 403


def test_nobody_deletes_someone_elses_visible_post(world):
    public = Api(token_for("ada")).post("/api/v1/statuses", {"status": "public"}).json()
    response = world["mallory"].delete(f"/api/v1/statuses/{public['id']}")
    assert (response.status_code, response.json()) == (404, NOT_FOUND)
    assert Api(None).get(f"/api/v1/statuses/{public['id']}").status_code == 200

"""``next`` after a form: followed only when it is a path on this site, else the view's own fallback; never a 500.

A plain word (``next=x``) was a 500 after the action was already done: ``redirect()`` took the word for the name
of a URL pattern (``NoReverseMatch``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.test import Client, RequestFactory
from django.utils.http import urlencode

from socialsite import redirects
from socialsite.tests.people import logged_in
from timelines import exceptions, selectors, services

pytestmark = pytest.mark.django_db

BAD_NEXT = ["x", "//evil.example", "https://evil.example", "/\\evil.example", "\x01/evil"]


@dataclass
class Scene:
    client: Client
    alice: int
    bob: int
    bob_post: int
    alice_post: int
    list_id: int


@pytest.fixture
def scene() -> Scene:
    client, alice = logged_in("alice")
    client.raise_request_exception = False
    bob = int(services.create_user(login="bob", name="Bob"))
    return Scene(
        client=client,
        alice=alice,
        bob=bob,
        bob_post=services.post_status(uid=bob, message="bob's words"),
        alice_post=services.post_status(uid=alice, message="alice's words"),
        list_id=services.create_user_list(uid=alice, name="Friends"),
    )


def _request_from_bob(s: Scene) -> None:
    services.set_private(uid=s.alice, private=True)
    services.follow_user(uid=s.bob, other_uid=s.alice)


@dataclass(frozen=True)
class Endpoint:
    """One form that takes ``next``: what it needs first, where it posts, its fallback, and whether it was done."""

    name: str
    path: Callable[[Scene], str]
    fallback: Callable[[Scene], str]
    done: Callable[[Scene], bool]
    before: Callable[[Scene], object] = lambda s: None
    data: Callable[[Scene], dict] = lambda s: {}


def _bob_follows_alice(s: Scene) -> bool:
    return selectors.is_following(uid=s.bob, other_uid=s.alice)


def _relation(s: Scene):
    return selectors.get_relationship(viewer=s.alice, other=s.bob)


def _status_gone(s: Scene) -> bool:
    try:
        selectors.get_status(status_id=s.alice_post)
    except exceptions.StatusNotFound:
        return True
    return False


ENDPOINTS = [
    Endpoint(
        "follow",
        lambda s: "/@bob/follow",
        lambda s: "/@bob",
        lambda s: _relation(s).following and selectors.get_user(uid=s.bob).followers == 1,
    ),
    Endpoint(
        "unfollow",
        lambda s: "/@bob/unfollow",
        lambda s: "/@bob",
        lambda s: not _relation(s).following and selectors.get_user(uid=s.bob).followers == 0,
        before=lambda s: services.follow_user(uid=s.alice, other_uid=s.bob),
    ),
    Endpoint("mute", lambda s: "/@bob/mute", lambda s: "/@bob", lambda s: _relation(s).muting),
    Endpoint(
        "unmute",
        lambda s: "/@bob/unmute",
        lambda s: "/@bob",
        lambda s: not _relation(s).muting,
        before=lambda s: services.mute_user(uid=s.alice, other_uid=s.bob),
    ),
    Endpoint("block", lambda s: "/@bob/block", lambda s: "/@bob", lambda s: _relation(s).blocking),
    Endpoint(
        "unblock",
        lambda s: "/@bob/unblock",
        lambda s: "/@bob",
        lambda s: not _relation(s).blocking,
        before=lambda s: services.block_user(uid=s.alice, other_uid=s.bob),
    ),
    Endpoint(
        "like",
        lambda s: f"/statuses/{s.bob_post}/like",
        lambda s: f"/@bob/{s.bob_post}",
        lambda s: selectors.get_status(status_id=s.bob_post).like_count == 1,
    ),
    Endpoint(
        "unlike",
        lambda s: f"/statuses/{s.bob_post}/unlike",
        lambda s: f"/@bob/{s.bob_post}",
        lambda s: selectors.get_status(status_id=s.bob_post).like_count == 0,
        before=lambda s: services.like_status(uid=s.alice, status_id=s.bob_post),
    ),
    Endpoint(
        "repost",
        lambda s: f"/statuses/{s.bob_post}/repost",
        lambda s: f"/@bob/{s.bob_post}",
        lambda s: selectors.get_status(status_id=s.bob_post).repost_count == 1,
    ),
    Endpoint(
        "unrepost",
        lambda s: f"/statuses/{s.bob_post}/unrepost",
        lambda s: f"/@bob/{s.bob_post}",
        lambda s: selectors.get_status(status_id=s.bob_post).repost_count == 0,
        before=lambda s: services.repost_status(uid=s.alice, status_id=s.bob_post),
    ),
    Endpoint(
        "approve",
        lambda s: "/follow-requests/@bob/approve",
        lambda s: "/follow-requests",
        lambda s: _bob_follows_alice(s) and selectors.get_follow_requests(uid=s.alice) == [],
        before=_request_from_bob,
    ),
    Endpoint(
        "reject",
        lambda s: "/follow-requests/@bob/reject",
        lambda s: "/follow-requests",
        lambda s: not _bob_follows_alice(s) and selectors.get_follow_requests(uid=s.alice) == [],
        before=_request_from_bob,
    ),
    Endpoint(
        "add list member",
        lambda s: f"/lists/{s.list_id}/members/add",
        lambda s: f"/lists/{s.list_id}/members",
        lambda s: (
            selectors.is_list_member(list_id=s.list_id, uid=s.bob)
            and selectors.get_user_list(list_id=s.list_id).members == 1
        ),
        data=lambda s: {"login": "bob"},
    ),
    Endpoint(
        "list picker",
        lambda s: "/@bob/lists/pick",
        lambda s: "/@bob",
        lambda s: (
            selectors.is_list_member(list_id=s.list_id, uid=s.bob)
            and selectors.get_user_list(list_id=s.list_id).members == 1
        ),
        data=lambda s: {"shown": [str(s.list_id)], "member": [str(s.list_id)]},
    ),
    Endpoint(
        "delete",
        lambda s: f"/statuses/{s.alice_post}/delete",
        lambda s: "/@alice",
        lambda s: _status_gone(s) and selectors.get_user(uid=s.alice).posts == 0,
    ),
]


@pytest.mark.parametrize("where", ["form", "query"])
@pytest.mark.parametrize("bad_next", BAD_NEXT)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda endpoint: endpoint.name)
def test_a_next_that_is_not_a_local_path_goes_to_the_fallback_after_doing_the_action_once(
    scene: Scene, endpoint: Endpoint, bad_next: str, where: str
):
    endpoint.before(scene)
    assert not endpoint.done(scene)
    data = endpoint.data(scene)
    path = endpoint.path(scene)
    if where == "form":
        data["next"] = bad_next
    else:
        path += "?" + urlencode({"next": bad_next})
    response = scene.client.post(path, data)
    assert response.status_code == 302, response.content.decode()[:500]
    assert response["Location"] == endpoint.fallback(scene)
    assert endpoint.done(scene)  # with its counters exactly one step on


@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda endpoint: endpoint.name)
def test_a_local_next_is_followed(scene: Scene, endpoint: Endpoint):
    endpoint.before(scene)
    response = scene.client.post(endpoint.path(scene), {**endpoint.data(scene), "next": "/search?q=redis"})
    assert response.status_code == 302
    assert response["Location"] == "/search?q=redis"
    assert endpoint.done(scene)


def test_the_delete_confirmation_offers_only_a_local_next(scene: Scene):
    for bad_next in BAD_NEXT:
        page = scene.client.get(f"/statuses/{scene.alice_post}/delete", {"next": bad_next})
        assert page.status_code == 200
        assert 'href="/@alice" class="button">Cancel' in page.content.decode()
        assert "evil" not in page.content.decode()


@pytest.mark.parametrize("secure", [False, True])
def test_local_path_accepts_paths_only(secure: bool):
    request = RequestFactory().get("/", secure=secure)
    for good in ("/", "/@bob", "/search?q=redis&max_id=3", "/@bob/12#status-12"):
        assert redirects.local_path(good, request=request) == good
    for bad in [*BAD_NEXT, "", None, "http://testserver/@bob", "///evil.example", "javascript:alert(1)", "@bob"]:
        assert redirects.local_path(bad, request=request) is None

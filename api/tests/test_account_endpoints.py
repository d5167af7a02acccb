"""Blocking and muting, editing one's profile and signing up from an app, through the API: the same services
and rules as the site's buttons, settings page and sign-up form."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory, override_settings

from api.entities.accounts import account
from api.tests.helpers import Api, person, register_app, token_for
from timelines import selectors, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada() -> Api:
    person("ada")
    return Api(token_for("ada"))


def app_token(client: Client, scopes: str = "read write follow") -> tuple[dict, str]:
    app = register_app(client, scopes=scopes)
    response = client.post(
        "/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": app["client_id"],
            "client_secret": app["client_secret"],
            "scope": scopes,
        },
    )
    return app, response.json()["access_token"]


def test_blocking_ends_the_follow_and_lists_the_blocked(ada):
    bob = person("bob")
    bob_api = Api(token_for("bob"))
    ada_id = ada.get("/api/v1/accounts/verify_credentials").json()["id"]
    bob_api.post(f"/api/v1/accounts/{ada_id}/follow")
    relation = ada.post(f"/api/v1/accounts/{bob.uid}/block").json()
    assert relation["blocking"] is True and relation["followed_by"] is False
    assert [item["username"] for item in ada.get("/api/v1/blocks").json()] == ["bob"]
    assert ada.post(f"/api/v1/accounts/{bob.uid}/unblock").json()["blocking"] is False
    assert ada.get("/api/v1/blocks").json() == []


def test_muting_and_unmuting(ada):
    bob = person("bob")
    assert ada.post(f"/api/v1/accounts/{bob.uid}/mute").json()["muting"] is True
    assert [item["id"] for item in ada.get("/api/v1/mutes").json()] == [str(bob.uid)]
    assert ada.post(f"/api/v1/accounts/{bob.uid}/unmute").json()["muting"] is False


def test_blocking_oneself_is_refused(ada):
    me = ada.get("/api/v1/accounts/verify_credentials").json()["id"]
    assert ada.post(f"/api/v1/accounts/{me}/block").status_code == 403


def test_update_credentials_edits_name_bio_and_privacy(ada):
    response = ada.client.patch(
        "/api/v1/accounts/update_credentials",
        "display_name=Ada+L.&note=Hello+%40ada&locked=true",
        content_type="application/x-www-form-urlencoded",
        headers=ada.headers,
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["display_name"] == "Ada L." and body["locked"] is True
    assert body["source"]["note"] == "Hello @ada" and body["source"]["privacy"] == "private"
    assert selectors.get_user_by_login(login="ada").private


def test_update_credentials_refuses_a_bad_name_and_changes_nothing(ada):
    response = ada.client.patch(
        "/api/v1/accounts/update_credentials",
        {"display_name": "x" * 500, "locked": True},
        content_type="application/json",
        headers=ada.headers,
    )
    assert response.status_code == 422
    me = selectors.get_user_by_login(login="ada")
    assert me.name == "Ada" and not me.private


def test_update_credentials_needs_write_accounts():
    person("ada")
    api = Api(token_for("ada", scope="read write:statuses"))
    response = api.client.patch(
        "/api/v1/accounts/update_credentials", {"note": "x"}, content_type="application/json", headers=api.headers
    )
    assert response.status_code == 403


def test_an_app_signs_a_person_up_and_the_token_works_at_once():
    client = Client()
    _, token = app_token(client)
    data = {"username": "newbie", "password": "a long enough password 42", "email": "", "agreement": "true"}
    response = Api(token).post("/api/v1/accounts", data)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["scope"] == "read write follow"
    me = Api(body["access_token"]).get("/api/v1/accounts/verify_credentials").json()
    assert me["username"] == "newbie"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"username": "ada", "password": "a long enough password 42", "agreement": "true"}, "username"),
        ({"username": "bad name", "password": "a long enough password 42", "agreement": "true"}, "username"),
        ({"username": "newbie", "password": "short", "agreement": "true"}, "password"),
    ],
)
def test_sign_up_refusals_are_422_with_details(data, field):
    person("ada")
    _, token = app_token(Client())
    response = Api(token).post("/api/v1/accounts", data)
    assert response.status_code == 422
    body = response.json()
    assert body["error"].startswith("Validation failed: ") and field in body["details"]


def test_sign_up_needs_the_agreement_and_an_app_token():
    person("ada")
    _, token = app_token(Client())
    data = {"username": "newbie", "password": "a long enough password 42"}
    assert Api(token).post("/api/v1/accounts", data).status_code == 422
    person_token = token_for("ada")
    assert Api(person_token).post("/api/v1/accounts", {**data, "agreement": "true"}).status_code == 403
    assert Api(None).post("/api/v1/accounts", {**data, "agreement": "true"}).status_code == 401


@override_settings(RATE_LIMIT_SIGNUPS_PER_IP="1/1h")
def test_the_sign_up_limit_applies_to_apps():
    _, token = app_token(Client())
    api = Api(token)
    first = api.post("/api/v1/accounts", {"username": "one", "password": "a long enough password 42", "agreement": "1"})
    assert first.status_code == 200
    second = api.post(
        "/api/v1/accounts", {"username": "two", "password": "a long enough password 42", "agreement": "1"}
    )
    assert second.status_code == 429


def test_follow_requests_are_listed_and_answered(ada):
    me = ada.get("/api/v1/accounts/verify_credentials").json()["id"]
    ada.client.patch(
        "/api/v1/accounts/update_credentials", {"locked": True}, content_type="application/json", headers=ada.headers
    )
    for login in ("bob", "carol"):
        person(login)
        assert Api(token_for(login)).post(f"/api/v1/accounts/{me}/follow").json()["requested"] is True
    waiting = ada.get("/api/v1/follow_requests").json()
    assert [item["username"] for item in waiting] == ["carol", "bob"]
    bob_id, carol_id = waiting[1]["id"], waiting[0]["id"]
    assert ada.post(f"/api/v1/follow_requests/{bob_id}/authorize").json()["followed_by"] is True
    assert ada.post(f"/api/v1/follow_requests/{carol_id}/reject").json()["followed_by"] is False
    assert ada.get("/api/v1/follow_requests").json() == []
    assert ada.post(f"/api/v1/follow_requests/{carol_id}/authorize").status_code == 404


def test_lists_are_the_persons_own(ada):
    bob = person("bob")
    uid = int(ada.get("/api/v1/accounts/verify_credentials").json()["id"])
    list_id = services.create_user_list(uid=uid, name="Friends")
    services.follow_user_list(uid=uid, other_uid=bob.uid, list_id=list_id)
    post = services.post_status(uid=bob.uid, message="to the list")
    assert ada.get("/api/v1/lists").json() == [
        {"id": str(list_id), "title": "Friends", "replies_policy": "list", "exclusive": False}
    ]
    assert [item["username"] for item in ada.get(f"/api/v1/lists/{list_id}/accounts").json()] == ["bob"]
    assert [item["id"] for item in ada.get(f"/api/v1/timelines/list/{list_id}").json()] == [str(post)]
    other = Api(token_for("bob"))
    for path in (f"/api/v1/lists/{list_id}", f"/api/v1/timelines/list/{list_id}", f"/api/v1/lists/{list_id}/accounts"):
        assert other.get(path).status_code == 404


def test_a_home_page_shows_its_authors_as_they_are_now(ada):
    """The Account entities of a page are shaped from the people as read for that call: a new name and a new
    follower show on the next read of the same page; what a caller does to an Account it got leaves the next
    caller's whole."""
    bob = person("bob")
    services.follow_user(uid=ada.get("/api/v1/accounts/verify_credentials").json()["id"], other_uid=bob.uid)
    services.post_status(uid=bob.uid, message="hello")
    first = ada.get("/api/v1/timelines/home").json()[0]["account"]
    request = RequestFactory().get("/api/v1/timelines/home")
    shaped = account(request, selectors.get_user(uid=bob.uid))
    shaped["fields"].append({"name": "edited", "value": "by a caller"})
    shaped["display_name"] = "edited"
    assert account(request, selectors.get_user(uid=bob.uid))["display_name"] == "Bob"
    services.update_profile(uid=bob.uid, name="Bob Renamed")
    services.follow_user(uid=person("cy").uid, other_uid=bob.uid)
    now = ada.get("/api/v1/timelines/home").json()[0]["account"]
    assert (now["display_name"], now["followers_count"]) == ("Bob Renamed", first["followers_count"] + 1)
    assert now["fields"] == []

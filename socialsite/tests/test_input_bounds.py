"""Every form field and query parameter is bounded before it reaches a query: a megabyte typed into any of them
is a form error (or a 4xx page), never a 500. A 1 MB log-in name answered 500 on SQLite ("LIKE or GLOB pattern
too complex"): the log-in form's length limit was only a widget attribute."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import sign_up
from socialsite.tests.people import PASSWORD, logged_in
from timelines import selectors, services

pytestmark = pytest.mark.django_db

MEGABYTE = "x" * 1_000_000
# Words: the admin's search splits on spaces and makes one LIKE per word; 60,000 bytes is over SQLite's 50,000.
LONG_WORD = "y" * 60_000


@dataclass
class Scene:
    client: Client
    uid: int
    list_id: int
    post_id: int


@pytest.fixture
def scene() -> Scene:
    client, uid = logged_in("una")
    client.raise_request_exception = False
    sign_up(login="vera", name="Vera", password=None)
    return Scene(
        client=client,
        uid=uid,
        list_id=services.create_user_list(uid=uid, name="Friends"),
        post_id=services.post_status(uid=uid, message="a post"),
    )


@dataclass(frozen=True)
class Field:
    name: str
    path: Callable[[Scene], str]
    data: Callable[[str], dict]
    anonymous: bool = False


FIELDS = [
    Field("log-in username", lambda s: "/accounts/login/", lambda v: {"username": v, "password": "x"}, True),
    Field("log-in password", lambda s: "/accounts/login/", lambda v: {"username": "una", "password": v}, True),
    Field(
        "sign-up username",
        lambda s: "/accounts/signup/",
        lambda v: {"username": v, "name": "N", "password1": PASSWORD},
        True,
    ),
    Field(
        "sign-up name",
        lambda s: "/accounts/signup/",
        lambda v: {"username": "nu", "name": v, "password1": PASSWORD},
        True,
    ),
    Field(
        "sign-up e-mail",
        lambda s: "/accounts/signup/",
        lambda v: {"username": "nu", "name": "N", "email": f"{v}@example.com", "password1": PASSWORD},
        True,
    ),
    Field(
        "sign-up password",
        lambda s: "/accounts/signup/",
        lambda v: {"username": "nu", "name": "N", "password1": v},
        True,
    ),
    Field("post", lambda s: "/compose", lambda v: {"message": v}),
    Field("reply", lambda s: f"/@una/{s.post_id}/reply", lambda v: {"message": v}),
    Field("new list name", lambda s: "/lists/create", lambda v: {"name": v}),
    Field("list name", lambda s: f"/lists/{s.list_id}/edit", lambda v: {"name": v}),
    Field("list member", lambda s: f"/lists/{s.list_id}/members/add", lambda v: {"login": v}),
    Field("list member removed", lambda s: f"/lists/{s.list_id}/members/remove", lambda v: {"login": v}),
    Field("profile name", lambda s: "/settings/profile", lambda v: {"name": v, "bio": ""}),
    Field("profile bio", lambda s: "/settings/profile", lambda v: {"name": "Una", "bio": v}),
    Field("report comment", lambda s: "/@vera/report/send", lambda v: {"reason": "spam", "comment": v}),
    Field(
        "old password",
        lambda s: "/accounts/password/",
        lambda v: {"old_password": v, "new_password1": "a new long password", "new_password2": "a new long password"},
    ),
    Field(
        "new password",
        lambda s: "/accounts/password/",
        lambda v: {"old_password": PASSWORD, "new_password1": v, "new_password2": v},
    ),
]


@pytest.mark.parametrize("field", FIELDS, ids=lambda field: field.name)
def test_a_megabyte_in_any_form_field_is_a_form_error_and_changes_nothing(scene: Scene, field: Field):
    client = Client(raise_request_exception=False) if field.anonymous else scene.client
    accounts = User.objects.count()
    response = client.post(field.path(scene), field.data(MEGABYTE))
    assert response.status_code == 400, response.status_code
    page = response.content.decode()
    assert 'class="error"' in page and "Traceback" not in page
    assert User.objects.count() == accounts
    assert selectors.get_user(uid=scene.uid).posts == 1
    assert selectors.get_user_list(list_id=scene.list_id).name == "Friends"


def test_a_megabyte_search_is_a_400_with_the_form(scene: Scene):
    for client in (Client(raise_request_exception=False), scene.client):
        response = client.get("/search", {"q": MEGABYTE})
        assert response.status_code == 400
        assert 'class="error"' in response.content.decode()


def test_the_right_password_still_logs_in_after_a_megabyte_log_in_name():
    sign_up(login="wes", name="Wes", password=PASSWORD)
    client = Client(raise_request_exception=False)
    refused = client.post("/accounts/login/", {"username": MEGABYTE, "password": PASSWORD})
    assert refused.status_code == 400
    assert "Ensure this value has at most 150 characters" in refused.content.decode()
    assert client.post("/accounts/login/", {"username": "wes", "password": PASSWORD}).status_code == 302


@pytest.mark.parametrize("changelist", ["/admin/accounts/user/", "/admin/accounts/report/", "/admin/admin/logentry/"])
def test_an_overlong_admin_search_is_refused_with_a_message_not_a_500(changelist: str):
    User.objects.create_superuser(username="root", password=PASSWORD)
    client = Client(raise_request_exception=False)
    client.login(username="root", password=PASSWORD)
    assert client.get(changelist).status_code == 200, changelist
    response = client.get(changelist, {"q": LONG_WORD})
    assert response.status_code == 200, response.status_code
    assert "Search for at most" in response.content.decode()

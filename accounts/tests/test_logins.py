"""One form of a typed login (``accounts.logins.login_key``) for log-in, its failed-log-in limit and sign-up.

Django's log-in form normalises what was typed with NFKC, so bob in fullwidth letters, with a modifier letter b or
in mathematical bold logs in as bob; the limit keyed on ``strip().lower()`` counted each of them apart, and five
wrong passwords for ``bob`` left the right one open under any of them."""

from __future__ import annotations

import sys

import pytest
from django.contrib.auth.forms import UsernameField
from django.test import Client

from accounts import logins
from accounts.models import User
from accounts.services import sign_up
from timelines import exceptions

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
# Each is bob to the log-in form: case, spaces, fullwidth, modifier and mathematical letters, and mixes.
FORMS_OF_BOB = [
    "bob",
    "BOB",
    "bOb",
    " Bob ",
    "\uff42\uff4f\uff42",
    "\u1d47ob",
    "\U0001d41b\U0001d428\U0001d41b",
    "b\uff4fb",
    "\u3000bob",
    "\uff22\uff2f\uff22",
]


def log_in(login: str, password: str, *, ip: str) -> Client:
    client = Client(REMOTE_ADDR=ip)
    client.response = client.post("/accounts/login/", {"username": login, "password": password})  # type: ignore[attr-defined]
    return client


def logged_in_as(client: Client) -> str | None:
    user_id = client.session.get("_auth_user_id")
    return User.objects.get(pk=user_id).username if user_id else None


def test_every_form_of_a_login_logs_in_to_that_account():
    sign_up(login="bob", name="Bob", password=PASSWORD)
    for n, typed in enumerate(FORMS_OF_BOB):
        assert logged_in_as(log_in(typed, PASSWORD, ip=f"10.0.0.{n + 1}")) == "bob", typed


def test_after_five_failures_the_right_password_is_refused_under_every_form_of_the_login():
    sign_up(login="bob", name="Bob", password=PASSWORD)
    # The failures themselves spread over forms of the login: they are one counter.
    for n, typed in enumerate(["bob", "\uff42\uff4f\uff42", "\u1d47ob", "\U0001d41b\U0001d428\U0001d41b", "BOB"]):
        assert log_in(typed, "wrong password", ip=f"10.0.1.{n + 1}").response.status_code == 400
    for n, typed in enumerate(FORMS_OF_BOB):
        client = log_in(typed, PASSWORD, ip=f"10.0.2.{n + 1}")
        assert client.response.status_code == 429, typed
        assert logged_in_as(client) is None, typed


def test_the_limit_keys_what_was_typed_exactly_as_log_in_compares_it():
    """For every code point c: what the form hands to authentication has the same key as what was typed (the
    limiter keys the raw POST field, before the form runs)."""
    field = UsernameField()
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF:
            continue
        for typed in (f"{chr(code)}ob", f" b{chr(code)}b\u3000"):
            assert logins.login_key(field.to_python(typed)) == logins.login_key(typed), hex(code)


def test_sign_up_refuses_every_form_of_a_taken_login():
    sign_up(login="bob", name="Bob", password=PASSWORD)
    for n, typed in enumerate(FORMS_OF_BOB[1:]):
        response = Client(REMOTE_ADDR=f"10.0.3.{n + 1}").post(
            "/accounts/signup/", {"username": typed, "name": "Not Bob", "password1": PASSWORD}
        )
        assert response.status_code == 400, typed
        assert exceptions.LOGIN_TAKEN in response.content.decode(), typed
    assert list(User.objects.values_list("username", flat=True)) == ["bob"]


def test_an_account_is_found_only_by_its_own_key():
    sign_up(login="Alice", name="Alice", password=PASSWORD)
    assert logins.find_account("\uff41\uff4c\uff49\uff43\uff45").username == "Alice"
    assert logins.find_account("alice\u0131") is None
    # Postgres' UPPER() folds the dotless i (U+0131) to I: the lookup must not stretch a key to another account.
    sign_up(login="bib", name="Bib", password=PASSWORD)
    assert logins.find_account("b\u0131b") is None


def test_the_admin_log_in_is_the_sites_so_its_limit_holds_there_too():
    """Django's admin had its own log-in form, without the failed-log-in limit: after five wrong passwords at
    /accounts/login/, the right one still logged a staff member in at /admin/login/."""
    User.objects.create_superuser(username="root", password=PASSWORD)
    for n in range(5):
        assert log_in("root", "wrong password", ip=f"10.0.4.{n + 1}").response.status_code == 400
    client = Client(REMOTE_ADDR="10.0.5.1")
    response = client.post("/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD})
    assert logged_in_as(client) is None
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/admin/"
    assert client.get("/admin/login/", {"next": "//evil.example"})["Location"] == "/accounts/login/?next=/admin/"


def test_a_member_without_admin_access_is_told_so_not_sent_round_the_log_in_pages(client):
    sign_up(login="amy", name="Amy", password=PASSWORD)
    client.login(username="amy", password=PASSWORD)
    assert client.get("/admin/")["Location"].startswith("/admin/login/")
    assert client.get("/admin/login/?next=/admin/").status_code == 403

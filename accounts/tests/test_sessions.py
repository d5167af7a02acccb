"""Who a request is: the session read and the account lookup every request makes (``accounts.sessions``,
``accounts.backends``) keep Django's behaviour: log-out, expiry, a deactivated account or a changed password
end a session; a forged or unknown session cookie is anonymous."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts.services import sign_up

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough secret 42"


def logged_in_as(client: Client) -> str | None:
    page = client.get("/").content.decode()
    marker = 'class="me">@'
    if marker not in page:
        return None
    return page.split(marker, 1)[1].split("<", 1)[0]


@pytest.fixture
def alice_client() -> Client:
    sign_up(login="alice", name="Alice Liddell", password=PASSWORD)
    client = Client()
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302
    return client


def test_a_logged_in_session_shows_who_is_logged_in(alice_client):
    assert logged_in_as(alice_client) == "alice"


def test_log_out_ends_the_session_even_for_a_copy_of_its_cookie(alice_client):
    stolen = Client()
    stolen.cookies["sessionid"] = alice_client.cookies["sessionid"].value
    assert logged_in_as(stolen) == "alice"
    alice_client.post("/accounts/logout/")
    assert logged_in_as(stolen) is None


def test_an_expired_session_is_anonymous(alice_client):
    key = alice_client.cookies["sessionid"].value
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - datetime.timedelta(seconds=1))
    assert logged_in_as(alice_client) is None


def test_a_deactivated_account_is_logged_out(alice_client, django_user_model):
    django_user_model.objects.filter(username="alice").update(is_active=False)
    assert logged_in_as(alice_client) is None


def test_a_password_changed_elsewhere_ends_the_session(alice_client, django_user_model):
    user = django_user_model.objects.get(username="alice")
    user.set_password("another long secret 43")
    user.save()
    assert logged_in_as(alice_client) is None


def test_an_unknown_or_forged_session_cookie_is_anonymous():
    client = Client()
    client.cookies["sessionid"] = "x" * 32
    assert logged_in_as(client) is None
    assert client.get("/").status_code == 200

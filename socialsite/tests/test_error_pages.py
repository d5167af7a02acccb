"""The site's own error pages (socialsite/views.py): a message for people, never a traceback, a setting or a
path, and the handlers wired in socialsite/urls.py."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from accounts.services import sign_up
from timelines import selectors

pytestmark = pytest.mark.django_db


def test_a_bad_request_shows_the_sites_page_without_settings_or_details():
    response = Client(HTTP_HOST="evil.example").get("/")
    assert response.status_code == 400
    html = response.content.decode()
    assert "<h1>Bad request</h1>" in html and "The request could not be understood." in html
    for secret in ("ALLOWED_HOSTS", "evil.example", "Traceback", "settings", str(settings.BASE_DIR)):
        assert secret not in html


def test_a_views_bad_request_message_is_shown():
    sign_up(login="ada", name="Ada", password=None)
    response = Client().get("/@ada?max_id=x")
    assert response.status_code == 400
    assert "max_id must be a whole number" in response.content.decode()


def test_a_server_error_shows_the_sites_page(monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("the secret internals of a failure")

    monkeypatch.setattr(selectors, "search", broken)
    response = Client(raise_request_exception=False).get("/search?q=hello")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong" in html and "secret internals" not in html and "Traceback" not in html


def test_a_form_without_its_csrf_token_gets_the_sites_403_page():
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "a", "password": "b"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "This form has expired" in html and "CSRF cookie" not in html and "<h1>Not allowed</h1>" in html


def test_the_error_handlers_are_the_sites_own():
    from socialsite import urls

    for code in (400, 403, 404, 500):
        assert getattr(urls, f"handler{code}").startswith("socialsite.views."), code
    assert settings.CSRF_FAILURE_VIEW == "socialsite.views.csrf_failure"

"""The page header comes from a per-process cache (socialsite/templatetags/site_header.py): each viewer still
sees their own login, counts and current page, and their own CSRF token in the Log out form; a visitor's page
carries no token."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from socialsite.fragments import PLACEHOLDER
from socialsite.templatetags import site_header
from socialsite.tests import people
from timelines import services

pytestmark = pytest.mark.django_db

LOGOUT_TOKEN = re.compile(r'action="/accounts/logout/".*?name="csrfmiddlewaretoken" value="([^"]+)"', re.S)


def logged_in(login: str) -> tuple[Client, int]:
    return people.logged_in(login, enforce_csrf_checks=True)


def header(client: Client, path: str = "/") -> str:
    page = client.get(path).content.decode()
    found = re.search(r'<header class="site-header">.*?</header>', page, re.S)
    assert found, "no header"
    return found.group(0)


def test_each_viewer_gets_their_own_login_and_logout_token_from_one_cached_header():
    site_header._headers.clear()
    amy, _ = logged_in("amy")
    bea, _ = logged_in("bea")
    amys, beas = header(amy), header(bea)
    assert "@amy</a>" in amys and "@bea</a>" in beas and "@bea" not in amys
    amy_token, bea_token = LOGOUT_TOKEN.search(amys).group(1), LOGOUT_TOKEN.search(beas).group(1)
    assert PLACEHOLDER not in amys + beas and amy_token != bea_token
    assert bea.post("/accounts/logout/", {"csrfmiddlewaretoken": amy_token}).status_code == 403
    assert amy.post("/accounts/logout/", {"csrfmiddlewaretoken": amy_token}).status_code == 302


def test_the_header_follows_the_viewers_counts_and_page():
    amy, amy_uid = logged_in("amy")
    _, bea_uid = logged_in("bea")
    before = header(amy)
    services.post_status(uid=bea_uid, message="hello @amy")
    services.set_private(uid=amy_uid, private=True)
    services.follow_user(uid=bea_uid, other_uid=amy_uid)
    after = header(amy)
    assert 'id="unread-count"' not in before and "Follow requests" not in before
    assert re.search(r'id="unread-count">2<', after) and re.search(r"Follow requests <span[^>]*>1<", after)
    assert '<a href="/" aria-current="page">Home</a>' in after
    settings_header = header(amy, "/settings/profile")
    assert 'href="/settings/profile" aria-current="page"' in settings_header
    assert 'aria-current="page">Home' not in settings_header


def test_a_visitor_gets_the_header_without_a_token_or_a_csrf_cookie():
    response = Client().get("/")
    page = response.content.decode()
    assert ">Log in</a>" in page and "csrfmiddlewaretoken" not in page and PLACEHOLDER not in page
    assert "csrftoken" not in response.cookies


def test_the_header_cache_is_bounded_and_can_be_turned_off(settings):
    clients = [logged_in(f"user{n}")[0] for n in range(4)]
    site_header._headers.clear()
    settings.TIMELINES_FRAGMENT_CACHE_SIZE = 2
    for client in clients:
        assert "Log out" in header(client)
    assert len(site_header._headers) == 2
    settings.TIMELINES_FRAGMENT_CACHE_SIZE = 0
    site_header._headers.clear()
    assert "Log out" in header(clients[0]) and len(site_header._headers) == 0

"""Rendered posts come from a per-process cache (templatetags/status_fragments.py): what each viewer sees is
still their own (buttons, flags, their CSRF token in every form), and a cached post never shows text that is
not its own."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from socialsite.tests import people
from timelines import services
from timelines.templatetags import status_fragments

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def logged_in(login: str) -> tuple[Client, int]:
    return people.logged_in(login, enforce_csrf_checks=True)


def like_form_token(html: str, status_id: int) -> str:
    form = re.search(rf'<form method="post" action="/statuses/{status_id}/like".*?</form>', html, re.S)
    assert form, "no Like form"
    found = TOKEN.search(form.group(0))
    assert found
    return found.group(1)


def test_each_viewer_gets_their_own_buttons_and_csrf_token_from_one_cached_fragment():
    amy, _ = logged_in("amy")
    bea, _ = logged_in("bea")
    cy, cy_uid = logged_in("cy")
    post = services.post_status(uid=cy_uid, message="hello from cy")
    first = bea.get("/@cy").content.decode()  # renders and caches the post
    second = amy.get("/@cy").content.decode()  # the same post, from the cache
    bea_token, amy_token = like_form_token(first, post), like_form_token(second, post)
    assert bea_token != amy_token
    assert amy.post(f"/statuses/{post}/like", {"csrfmiddlewaretoken": amy_token}).status_code == 302
    assert bea.post(f"/statuses/{post}/like", {"csrfmiddlewaretoken": amy_token}).status_code == 403
    # amy now sees Unlike and one like; bea, on the same page, Like and one like.
    amy_page, bea_page = amy.get("/@cy").content.decode(), bea.get("/@cy").content.decode()
    assert ">Unlike</button>" in amy_page and ">Unlike</button>" not in bea_page
    assert '<span class="count">1</span>' in amy_page and '<span class="count">1</span>' in bea_page
    # The author sees Delete, others Report.
    cy_page = cy.get("/@cy").content.decode()
    assert ">Delete</button>" in cy_page and ">Delete</button>" not in amy_page and ">Report</a>" in amy_page


def test_text_that_looks_like_a_token_placeholder_is_shown_as_written():
    amy, _ = logged_in("amy")
    _, bea_uid = logged_in("bea")
    services.post_status(uid=bea_uid, message="look <csrf-token> csrf-0123456789abcdef0123456789abcdef here")
    page = amy.get("/@bea").content.decode()
    assert "look &lt;csrf-token&gt; csrf-0123456789abcdef0123456789abcdef here" in page
    assert status_fragments.PLACEHOLDER not in page


def test_the_cache_is_bounded_and_can_be_turned_off(settings):
    amy, _ = logged_in("amy")
    _, bea_uid = logged_in("bea")
    for i in range(8):
        services.post_status(uid=bea_uid, message=f"post {i}")
    status_fragments._fragments.clear()
    settings.TIMELINES_FRAGMENT_CACHE_SIZE = 3
    page = amy.get("/@bea").content.decode()
    assert all(f"post {i}" in page for i in range(8)) and len(status_fragments._fragments) == 3
    settings.TIMELINES_FRAGMENT_CACHE_SIZE = 0
    status_fragments._fragments.clear()
    page = amy.get("/@bea").content.decode()
    assert all(f"post {i}" in page for i in range(8)) and not status_fragments._fragments

"""``{% cached_include %}`` (socialsite/templatetags/cached_include.py): the home page's empty post box and
trending tags come from a per-process cache, and still show each viewer their own CSRF token and the tags as
they are now."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from socialsite.fragments import PLACEHOLDER
from socialsite.templatetags import cached_include
from socialsite.tests import people
from timelines import services

pytestmark = pytest.mark.django_db

COMPOSE_TOKEN = re.compile(r'<form id="compose".*?name="csrfmiddlewaretoken" value="([^"]+)"', re.S)


def logged_in(login: str) -> tuple[Client, int]:
    return people.logged_in(login, enforce_csrf_checks=True)


def trending(page: str) -> list[tuple[str, str]]:
    section = re.search(r'<section class="panel trending".*?</section>', page, re.S)
    return re.findall(r">#(\w+)</a> <span class=\"hint\">(\d+) post", section.group(0)) if section else []


def test_each_viewer_posts_with_their_own_token_from_one_cached_post_box():
    cached_include._included.clear()
    amy, _ = logged_in("amy")
    bea, _ = logged_in("bea")
    amy_page, bea_page = amy.get("/").content.decode(), bea.get("/").content.decode()
    amy_token, bea_token = COMPOSE_TOKEN.search(amy_page).group(1), COMPOSE_TOKEN.search(bea_page).group(1)
    assert amy_token != bea_token and PLACEHOLDER not in amy_page + bea_page
    assert bea.post("/compose", {"message": "from bea", "csrfmiddlewaretoken": amy_token}).status_code == 403
    assert amy.post("/compose", {"message": "from amy", "csrfmiddlewaretoken": amy_token}).status_code == 302
    assert "from amy" in amy.get("/@amy").content.decode()


def test_a_refused_post_keeps_its_text_and_error_and_the_next_page_is_empty_again():
    amy, _ = logged_in("amy")
    token = COMPOSE_TOKEN.search(amy.get("/").content.decode()).group(1)
    refused = amy.post("/compose", {"message": "x" * 300, "csrfmiddlewaretoken": token}).content.decode()
    assert "x" * 300 in refused and 'id="compose-error"' in refused
    assert "x" * 300 not in amy.get("/").content.decode()


def test_the_trending_tags_shown_are_the_current_ones():
    amy, amy_uid = logged_in("amy")
    services.post_status(uid=amy_uid, message="#redis")
    assert trending(amy.get("/").content.decode()) == [("redis", "1")]
    services.post_status(uid=amy_uid, message="#redis #django")
    assert trending(amy.get("/").content.decode()) == [("redis", "2"), ("django", "1")]


def menu(page: str) -> list[str]:
    head = re.search(r'<section class="panel profile">.*?</section>', page, re.S).group(0)
    return re.findall(r"<button[^>]*>(Follow|Unfollow|Requested|Mute|Unmute|Block|Unblock)</button>", head)


def test_a_cached_profile_head_shows_each_viewer_their_own_relationship_and_token():
    amy, amy_uid = logged_in("amy")
    bea, _ = logged_in("bea")
    _, cy_uid = logged_in("cy")
    services.follow_user(uid=amy_uid, other_uid=cy_uid)
    services.mute_user(uid=amy_uid, other_uid=cy_uid)
    amy_page, bea_page = amy.get("/@cy").content.decode(), bea.get("/@cy").content.decode()
    assert menu(amy_page) == ["Unfollow", "Unmute", "Block"] and menu(bea_page) == ["Follow", "Mute", "Block"]
    follow_token = re.compile(r'class="inline follow-form".*?name="csrfmiddlewaretoken" value="([^"]+)"', re.S)
    assert follow_token.search(amy_page).group(1) != follow_token.search(bea_page).group(1)
    assert PLACEHOLDER not in amy_page + bea_page
    services.unmute_user(uid=amy_uid, other_uid=cy_uid)
    assert menu(amy.get("/@cy").content.decode()) == ["Unfollow", "Mute", "Block"]
    assert menu(Client().get("/@cy").content.decode()) == []  # a visitor gets a way to log in instead

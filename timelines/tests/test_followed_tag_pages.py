"""The Follow button of a tag's page (issue 20): a logged-in visitor follows the tag from ``/tags/<tag>``, its
public posts reach their home page, and Unfollow stops them; anonymous visitors see no button; bad tags and GETs
are refused without a change."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from socialsite.tests.people import logged_in
from timelines import services
from timelines.selectors import followed_tags
from timelines.tests.test_views import status_ids

pytestmark = pytest.mark.django_db


def button(html: str) -> str | None:
    found = re.search(r'<form method="post" action="(/tags/[^"]+)".*?<button[^>]*>([^<]+)</button>', html, re.S)
    return f"{found.group(1)} {found.group(2).strip()}" if found else None


def test_following_a_tag_from_its_page_brings_its_public_posts_home():
    client, uid = logged_in("tia")
    author = services.create_user(login="ray", name="Ray")
    page = client.get("/tags/Redis")
    assert button(page.content.decode()) == "/tags/redis/follow Follow #redis"
    followed = client.post("/tags/redis/follow", follow=True)
    assert followed.status_code == 200 and "You now follow #redis." in followed.content.decode()
    assert button(followed.content.decode()) == "/tags/redis/unfollow Unfollow #redis"
    assert followed_tags.follows_tags(uid=uid, tags=["redis"]) == [True]
    tagged = services.post_status(uid=author, message="#redis at home")
    services.post_status(uid=author, message="#redis unlisted", visibility="unlisted")
    assert status_ids(client.get("/")) == [tagged]
    unfollowed = client.post("/tags/redis/unfollow", follow=True)
    assert "You no longer follow #redis." in unfollowed.content.decode()
    assert button(unfollowed.content.decode()) == "/tags/redis/follow Follow #redis"
    services.post_status(uid=author, message="#redis later")
    assert status_ids(client.get("/")) == [tagged]


def test_the_button_needs_a_login_a_post_and_a_real_tag():
    assert button(Client().get("/tags/redis").content.decode()) is None
    assert Client().post("/tags/redis/follow").status_code == 302  # to the log-in page
    client, uid = logged_in("uli")
    assert client.get("/tags/redis/follow").status_code == 405
    assert client.post("/tags/123/follow").status_code == 404
    assert button(client.get("/tags/123").content.decode()) is None
    assert followed_tags.get_followed_tags(uid=uid, count=10) == []

"""Following a tag in a real browser (issue 20): **Follow #tag** on the tag's page, and the tag's public posts then
reach the open home page live, as a followed person's do; **Unfollow #tag** stops them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from socialsite.tests.browser.test_site import article, sign_up_in
from timelines import services

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_following_a_tag_from_its_page_brings_its_posts_home_live(open_page: Callable[..., Page]):
    page = open_page()
    sign_up_in(page, "tagfan", "Tag Fan")
    author = services.create_user(login="tagwriter", name="Tag Writer")
    page.goto("/tags/Redis")
    page.get_by_role("button", name="Follow #redis").click()
    expect(page.get_by_text("You now follow #redis.")).to_be_visible()
    expect(page.get_by_role("button", name="Unfollow #redis")).to_be_visible()

    page.goto("/")
    services.post_status(uid=author, message="sorted sets everywhere #redis")
    services.post_status(uid=author, message="only for some #redis", visibility="unlisted")
    services.post_status(uid=author, message="live marker, untagged")  # not followed: never comes
    expect(article(page, "sorted sets everywhere #redis")).to_be_visible()  # live, no reload
    page.reload()
    expect(page.locator("#timeline article.status")).to_have_count(1)

    page.goto("/tags/redis")
    page.get_by_role("button", name="Unfollow #redis").click()
    expect(page.get_by_text("You no longer follow #redis.")).to_be_visible()
    services.post_status(uid=author, message="after unfollowing #redis")
    page.goto("/")
    expect(page.locator("#timeline article.status")).to_have_count(1)

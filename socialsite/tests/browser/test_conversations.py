"""Conversations in a real browser: a mention that notifies live, a reply from the post's page, a repost seen
once with who reposted it, a like, tags and search, and a deletion that takes the post out of all of them."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from socialsite.tests.browser.conftest import screenshot_dir
from socialsite.tests.browser.test_site import article, post_from, sign_up_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MESSAGE = "#Redis tips for @bob https://example.com"


def notifications_link(page: Page):
    return page.get_by_role("link", name=re.compile(r"^Notifications"))


def test_mentions_replies_reposts_likes_tags_search_and_deletion(open_page: Callable[..., Page]):
    alice, bob, carol = open_page(), open_page(), open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")
    sign_up_in(carol, "carol", "Carol Danvers")

    # bob has a page open; alice's mention raises his count without a reload.
    bob.goto("/@alice")
    expect(notifications_link(bob)).to_have_accessible_name("Notifications")
    bob.evaluate("window.stillTheSamePage = true")
    alice.goto("/")
    post_from(alice, MESSAGE)
    post = article(alice, "Redis tips for")
    expect(post.get_by_role("link", name="#Redis")).to_have_attribute("href", "/tags/redis")
    expect(post.get_by_role("link", name="@bob")).to_have_attribute("href", "/@bob")
    link = post.get_by_role("link", name="https://example.com")
    expect(link).to_have_attribute("rel", "nofollow noopener noreferrer ugc")
    expect(notifications_link(bob)).to_have_accessible_name("Notifications 1")
    assert bob.evaluate("window.stillTheSamePage") is True

    notifications_link(bob).click()
    expect(bob.get_by_text("Alice Liddell mentioned you")).to_be_visible()
    expect(notifications_link(bob)).to_have_accessible_name("Notifications")  # opening the page marked it read
    bob.get_by_role("link", name=re.compile("Redis tips for")).click()
    expect(bob).to_have_url(re.compile(r"/@alice/\d+$"))
    reply_box = bob.get_by_role("textbox", name="Your reply")
    expect(reply_box).to_have_value("@alice ")
    reply_box.fill("@alice thanks, very useful")
    expect(bob.locator(".reply-form .counter")).to_have_text("254 characters left")
    bob.get_by_role("button", name="Post reply").click()
    expect(article(bob, "thanks, very useful")).to_be_visible()

    alice.goto(bob.url.split("#")[0])
    expect(article(alice, "thanks, very useful")).to_be_visible()
    expect(article(alice, "thanks, very useful")).to_contain_text("Replying to @alice")
    screenshot = screenshot_dir() / "post-page.png"
    alice.screenshot(path=str(screenshot), full_page=True)

    # carol follows bob; bob reposts; carol sees it once, saying who reposted it, and likes it.
    carol.goto("/@bob")
    carol.get_by_role("button", name="Follow", exact=True).click()
    expect(carol.get_by_role("button", name="Unfollow", exact=True)).to_be_visible()
    bob.goto("/@alice")
    article(bob, "Redis tips for").get_by_role("button", name="Repost", exact=True).click()
    expect(article(bob, "Redis tips for").get_by_role("button", name="Undo repost")).to_be_visible()
    carol.goto("/")
    reposted = article(carol, "Redis tips for")
    expect(reposted).to_have_count(1)
    expect(reposted).to_contain_text("Bob Builder reposted")
    reposted.get_by_role("button", name="Like", exact=True).click()
    expect(reposted.get_by_role("button", name="Unlike")).to_be_visible()
    expect(reposted.locator(".count").nth(2)).to_have_text("1")

    alice.goto("/notifications")
    expect(alice.get_by_text("Bob Builder reposted your post")).to_be_visible()
    expect(alice.get_by_text("Carol Danvers liked your post")).to_be_visible()
    expect(alice.get_by_text("Bob Builder replied to you")).to_be_visible()
    alice.screenshot(path=str(screenshot_dir() / "notifications.png"), full_page=True)

    # Tags and search find it, anonymous visitors included.
    carol.goto("/tags/redis")
    expect(article(carol, "Redis tips for")).to_be_visible()
    carol.get_by_role("searchbox", name="Search").fill("tips")
    carol.get_by_role("searchbox", name="Search").press("Enter")
    expect(article(carol, "Redis tips for")).to_be_visible()

    # alice deletes it: gone from carol's home (the repost), the tag, search and the notifications.
    alice.goto("/@alice")
    article(alice, "Redis tips for").get_by_role("button", name="Delete").click()
    # The confirmation replaces the button in place: answer it by its own name, once it is there.
    confirmation = article(alice, "Redis tips for").get_by_role("group", name="Delete this post?")
    confirmation.get_by_role("button", name="Delete").click()
    expect(article(alice, "Redis tips for")).to_have_count(0)
    expect(alice.locator("#announcer")).to_have_text("Post deleted.")  # what a screen reader is told
    for path in ("/", "/tags/redis", "/search?q=tips", "/@bob"):
        carol.goto(path)
        expect(article(carol, "Redis tips for")).to_have_count(0)
    bob.goto("/notifications")
    expect(bob.get_by_text("mentioned you")).to_have_count(0)
    bob.goto("/@bob")
    expect(article(bob, "thanks, very useful")).to_contain_text("Replying to a deleted post")

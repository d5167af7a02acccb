"""Bookmarks in a real browser: bob saves alice's post with its Bookmark button (switched in place to Remove
bookmark, focus kept on it), finds it under Bookmarks in the header's menu, and removes it there."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from socialsite.tests.browser.conftest import screenshot_dir
from socialsite.tests.browser.test_site import article, post_from, sign_up_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_bob_bookmarks_a_post_and_finds_it_on_his_bookmarks_page(open_page: Callable[..., Page]):
    alice, bob = open_page(), open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")
    post_from(alice, "Worth reading twice")
    post_from(alice, "Not this one")

    bob.goto("/@alice")
    kept = article(bob, "Worth reading twice")
    kept.get_by_role("button", name="Bookmark", exact=True).click()
    expect(kept.get_by_role("button", name="Remove bookmark")).to_be_visible()
    expect(article(bob, "Not this one").get_by_role("button", name="Bookmark", exact=True)).to_be_visible()
    bob.screenshot(path=str(screenshot_dir() / "bookmark-button.png"))

    bob.get_by_role("navigation", name="Main").get_by_role("link", name="Bookmarks").click()
    expect(bob.get_by_role("heading", name="Bookmarks", exact=True)).to_be_visible()
    expect(bob.locator("#timeline article.status")).to_have_count(1)
    listed = article(bob, "Worth reading twice")
    expect(listed).to_be_visible()
    bob.screenshot(path=str(screenshot_dir() / "bookmarks.png"))
    listed.get_by_role("button", name="Remove bookmark").click()
    expect(listed.get_by_role("button", name="Bookmark", exact=True)).to_be_visible()
    bob.reload()
    expect(bob.get_by_text("No bookmarks yet.")).to_be_visible()

    # Nobody else sees bob's bookmarks: alice's own page has none.
    alice.goto("/bookmarks")
    expect(alice.get_by_text("No bookmarks yet.")).to_be_visible()

"""Editing a post in a real browser (issue 19): alice posts for her followers only and fixes it in place; bob's
open home swaps the new text in and shows "Edited" without a reload, and the history page lists both versions,
newest first."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from socialsite.tests.browser.test_site import article, post_from, sign_up_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FIRST = "Followers only: the meetup is on Tuesdy"
FIXED = "Followers only: the meetup is on Tuesday"


def test_an_edit_reaches_an_open_home_in_place_and_the_history_lists_both_versions(open_page: Callable[..., Page]):
    alice, bob = open_page(), open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")
    bob.goto("/@alice")
    bob.get_by_role("button", name="Follow", exact=True).click()
    expect(bob.get_by_role("button", name="Unfollow", exact=True)).to_be_visible()
    bob.goto("/")
    bob.evaluate("window.stillTheSamePage = true")

    alice.goto("/")
    alice.get_by_role("combobox", name="Visibility").select_option(label="Followers only")
    post_from(alice, FIRST)
    # Arriving live, the post shows bob's page follows the stream before anything is edited.
    expect(article(bob, FIRST)).to_be_visible()

    mine = article(alice, FIRST)
    mine.get_by_role("button", name="Edit").click()
    box = alice.get_by_role("textbox", name="Edit your post")
    expect(box).to_have_value(FIRST)
    box.fill(FIXED)
    alice.get_by_role("button", name="Save").click()
    expect(article(alice, FIXED).get_by_role("link", name="Edited")).to_be_visible()
    expect(box).to_have_count(0)

    seen = article(bob, FIXED)
    expect(seen).to_be_visible()  # swapped in, without a reload:
    expect(seen.get_by_role("link", name="Edited")).to_be_visible()
    expect(article(bob, FIRST)).to_have_count(0)
    expect(seen.get_by_title("Followers only")).to_be_visible()
    assert bob.evaluate("window.stillTheSamePage") is True

    seen.get_by_role("link", name="Edited").click()
    expect(bob.get_by_role("heading", name="Edit history")).to_be_visible()
    versions = bob.locator("ol.versions li.version")
    expect(versions).to_have_count(2)
    expect(versions.nth(0)).to_contain_text(FIXED)
    expect(versions.nth(0)).to_contain_text("Current version")
    expect(versions.nth(1)).to_contain_text(FIRST)
    expect(versions.nth(1)).to_contain_text("Original")

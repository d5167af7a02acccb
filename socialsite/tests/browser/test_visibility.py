"""Visibility per post in a real browser (issue 19), by the names a screen reader announces: alice picks
"Followers only" in the post box's Visibility menu; her follower bob sees the post with its label, carol, who
does not follow her, sees nothing of it, not even by its link."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from socialsite.tests.browser.test_site import article, post_from, sign_up_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MESSAGE = "Only my followers read this"


def test_a_followers_only_post_reaches_followers_with_its_label_and_nobody_else(open_page: Callable[..., Page]):
    alice, bob, carol = open_page(), open_page(), open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")
    sign_up_in(carol, "carol", "Carol Danvers")
    bob.goto("/@alice")
    bob.get_by_role("button", name="Follow", exact=True).click()
    expect(bob.get_by_role("button", name="Unfollow", exact=True)).to_be_visible()

    alice.goto("/")
    menu = alice.get_by_role("combobox", name="Visibility")
    expect(menu).to_have_value("public")
    menu.select_option(label="Followers only")
    post_from(alice, MESSAGE)
    expect(article(alice, MESSAGE)).to_contain_text("Followers only")
    link = article(alice, MESSAGE).locator("a.permalink").get_attribute("href")
    assert link and re.fullmatch(r"/@alice/\d+", link)

    bob.goto("/")
    expect(article(bob, MESSAGE)).to_be_visible()
    expect(article(bob, MESSAGE).get_by_title("Followers only")).to_be_visible()
    expect(article(bob, MESSAGE).get_by_role("button", name="Repost")).to_have_count(0)

    carol.goto("/@alice")
    expect(carol.get_by_role("heading", name=re.compile("Alice Liddell"))).to_be_visible()
    expect(article(carol, MESSAGE)).to_have_count(0)
    response = carol.goto(link)
    assert response is not None and response.status == 404
    expect(carol.get_by_text(MESSAGE)).to_have_count(0)

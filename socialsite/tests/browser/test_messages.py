"""Direct messages in a real browser (issue 19), by the names a screen reader announces: alice opens bob's
profile, chooses Message, types in "Your message" and sends; bob, on his home, sees "Messages 1" without a
reload, opens the conversation and answers, and alice's open conversation shows the answer live; bob's open
list of conversations shows alice's next message; carol sees nothing of it anywhere."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from socialsite.tests.browser.test_site import article, sign_up_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_alice_messages_bob_from_his_profile_and_he_answers(open_page: Callable[..., Page]):
    alice, bob, carol = open_page(), open_page(), open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")
    sign_up_in(carol, "carol", "Carol Danvers")
    bob.goto("/")
    expect(bob.get_by_role("link", name="Messages", exact=True)).to_be_visible()

    alice.goto("/@bob")
    alice.get_by_role("link", name="Message", exact=True).click()
    alice.get_by_role("textbox", name="Your message").fill("Lunch tomorrow?")
    alice.get_by_role("button", name="Send").click()
    expect(alice).to_have_url(re.compile(r"/messages/\d+$"))
    expect(article(alice, "Lunch tomorrow?")).to_be_visible()

    # bob's open home learns of it without a reload.
    expect(bob.get_by_role("link", name="Messages 1")).to_be_visible()
    bob.get_by_role("link", name="Messages 1").click()
    bob.get_by_role("link", name="Alice Liddell", exact=True).click()
    expect(article(bob, "Lunch tomorrow?")).to_be_visible()
    expect(bob.get_by_role("link", name="Messages", exact=True)).to_be_visible()  # read once opened
    bob.get_by_role("textbox", name="Your message").fill("Yes, at noon")
    bob.get_by_role("button", name="Send").click()
    expect(article(bob, "Yes, at noon")).to_be_visible()

    # alice's conversation, still open, shows the answer on top, and stays read.
    expect(article(alice, "Yes, at noon")).to_be_visible()
    expect(alice.locator("article.status").first).to_contain_text("Yes, at noon")
    expect(alice.get_by_role("link", name="Messages", exact=True)).to_be_visible()

    # bob's open list of conversations follows a new message too.
    bob.goto("/messages")
    expect(bob.locator("#conversation-list")).to_contain_text("Yes, at noon")
    alice.get_by_role("textbox", name="Your message").fill("See you there")
    alice.get_by_role("button", name="Send").click()
    expect(bob.locator("#conversation-list")).to_contain_text("See you there")
    expect(bob.locator("#conversation-list")).to_contain_text("Unread")
    expect(bob.get_by_role("link", name="Messages 1")).to_be_visible()

    for url in ("/", "/@alice", "/@bob", "/messages", "/notifications"):
        carol.goto(url)
        expect(carol.get_by_text("Lunch tomorrow?")).to_have_count(0)

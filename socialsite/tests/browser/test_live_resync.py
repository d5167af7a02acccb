"""Open pages that stay equal to their reload, in a real browser (issue 19): an edited direct message swaps in
place on the open conversation and the open list of conversations shows its new text; a home whose stream was
away while a post was deleted and another edited shows neither stale once it reconnects, without a reload."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from socialsite.tests.browser.test_site import article, sign_up_in
from timelines import selectors, services

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_an_edited_message_swaps_in_on_the_open_conversation_and_the_list(open_page: Callable[..., Page]):
    alice, bob, bobs_list = open_page(), open_page(), None
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")
    alice.goto("/@bob")
    alice.get_by_role("link", name="Message", exact=True).click()
    alice.get_by_role("textbox", name="Your message").fill("Lunch at noen?")
    alice.get_by_role("button", name="Send").click()
    expect(alice).to_have_url(re.compile(r"/messages/\d+$"))
    conversation = alice.url

    bob.goto(conversation)
    expect(article(bob, "Lunch at noen?")).to_be_visible()
    bob.evaluate("window.stillTheSamePage = true")
    bobs_list = bob.context.new_page()
    bobs_list.goto("/messages")
    expect(bobs_list.locator("#conversation-list")).to_contain_text("Lunch at noen?")

    article(alice, "Lunch at noen?").get_by_role("button", name="Edit").click()
    alice.get_by_role("textbox", name="Edit your post").fill("Lunch at noon?")
    alice.get_by_role("button", name="Save").click()
    expect(article(alice, "Lunch at noon?").get_by_role("link", name="Edited")).to_be_visible()

    fixed = article(bob, "Lunch at noon?")
    expect(fixed).to_be_visible()  # swapped in, without a reload
    expect(fixed.get_by_role("link", name="Edited")).to_be_visible()
    expect(article(bob, "Lunch at noen?")).to_have_count(0)
    assert bob.evaluate("window.stillTheSamePage") is True
    expect(bobs_list.locator("#conversation-list")).to_contain_text("Lunch at noon?")


def test_a_home_that_reconnects_drops_what_was_deleted_while_it_was_away(open_page: Callable[..., Page]):
    bob = open_page()
    sign_up_in(bob, "bob", "Bob Builder")
    alice = services.create_user(login="alice", name="Alice Liddell")
    services.follow_user(uid=selectors.get_user_by_login(login="bob").id, other_uid=alice)
    gone = services.post_status(uid=alice, message="Soon deleted")
    services.post_status(uid=alice, message="Stays")
    edited = services.post_status(uid=alice, message="Soon edtied")
    bob.goto("/")
    for text in ("Soon deleted", "Stays", "Soon edtied"):
        expect(article(bob, text)).to_be_visible()
    bob.evaluate("window.stillTheSamePage = true")

    # The stream goes away (as when the network drops), and meanwhile one post is deleted and one edited.
    bob.evaluate("document.getElementById('timeline').liveSource.close()")
    services.delete_status(uid=alice, status_id=gone)
    services.edit_status(uid=alice, status_id=edited, message="Soon edited")
    expect(article(bob, "Soon deleted")).to_be_visible()  # nothing told the page yet
    # The page reconnects as it does after a cut-off, and gets what a reload would show.
    bob.evaluate(
        "document.getElementById('timeline').liveSource.dispatchEvent(new MessageEvent('reload', {data: '{}'}))"
    )
    expect(article(bob, "Soon deleted")).to_have_count(0)
    expect(article(bob, "Soon edited")).to_be_visible()
    expect(article(bob, "Stays")).to_be_visible()
    assert bob.evaluate("window.stillTheSamePage") is True

"""A list page is live for its owner (issue 19): what the delivery writes to the list arrives without a reload,
a member added brings their posts at once, a deleted post leaves, a reload shows the same."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from socialsite.tests.browser.test_site import article, sign_up_in
from timelines import selectors, services

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_the_owners_open_list_page_follows_its_list_live(open_page: Callable[..., Page]):
    alice = open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    bob = services.create_user(login="bob", name="Bob Builder")
    carol = services.create_user(login="carol", name="Carol Danvers")
    me = selectors.get_user_by_login(login="alice").id
    list_id = services.create_user_list(uid=me, name="Close friends")
    services.follow_user_list(uid=me, other_uid=bob, list_id=list_id)
    earlier = services.post_status(uid=carol, message="Carol wrote this before she was listed")

    alice.goto(f"/lists/{list_id}")
    expect(alice.locator("#timeline[data-live-url]")).to_have_count(1)
    alice.evaluate("window.stillTheSamePage = true")

    from_bob = services.post_status(uid=bob, message="Bob, live on the list")
    expect(article(alice, "Bob, live on the list")).to_be_visible()
    services.follow_user_list(uid=me, other_uid=carol, list_id=list_id)
    expect(article(alice, "Carol wrote this before she was listed")).to_be_visible()
    services.delete_status(uid=bob, status_id=from_bob)
    expect(article(alice, "Bob, live on the list")).to_have_count(0)
    assert alice.evaluate("window.stillTheSamePage") is True
    shown = alice.locator("#timeline article.status").evaluate_all("(all) => all.map((a) => a.dataset.id)")

    alice.reload()
    expect(alice.locator("#timeline article.status")).to_have_count(1)
    assert shown == alice.locator("#timeline article.status").evaluate_all("(all) => all.map((a) => a.dataset.id)")
    assert shown == [str(earlier)]

"""Privacy and safety in a real browser, by the names a screen reader announces: a private account approving a
follow request, and a Block and a Mute from a profile's menu."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from socialsite.tests.browser.test_site import article, post_from, sign_up_in
from timelines.tests.helpers import run_worker_burst

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def profile_menu(page: Page, login: str):
    return page.get_by_role("group", name=f"More for @{login}")


def follow_button(page: Page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def test_a_private_account_approves_a_follow_request_and_the_requester_then_sees_its_posts(
    open_page: Callable[..., Page],
):
    alice, bob = open_page(), open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")

    alice.goto("/settings/profile")
    alice.get_by_label("Private account").check()
    alice.get_by_role("button", name="Save").click()
    expect(alice.get_by_label("Private account")).to_be_checked()
    alice.goto("/")
    post_from(alice, "Only for the people I approve")

    bob.goto("/@alice")
    expect(bob.get_by_text("This account is private. Only approved followers see its posts.")).to_be_visible()
    expect(article(bob, "Only for the people I approve")).to_have_count(0)
    follow_button(bob, "Follow").click()
    expect(follow_button(bob, "Requested")).to_be_visible()

    alice.goto("/")
    alice.get_by_role("link", name="Follow requests 1").click()
    expect(alice).to_have_url(re.compile(r"/follow-requests$"))
    expect(alice.get_by_role("link", name="Bob Builder @bob")).to_be_visible()
    alice.get_by_role("button", name="Approve").click()
    expect(alice.get_by_text("@bob now follows you.")).to_be_visible()
    expect(alice.get_by_role("link", name=re.compile(r"^Follow requests"))).to_have_count(0)

    # bob, still on her profile, is told without a reload.
    notifications = bob.get_by_role("link", name=re.compile(r"^Notifications"))
    expect(notifications).to_have_accessible_name("Notifications 1")
    notifications.click()
    expect(bob.get_by_text("Alice Liddell accepted your follow request")).to_be_visible()
    bob.goto("/@alice")
    expect(follow_button(bob, "Unfollow")).to_be_visible()
    expect(article(bob, "Only for the people I approve")).to_be_visible()
    bob.goto("/")
    expect(article(bob, "Only for the people I approve")).to_be_visible()


def test_block_and_mute_from_the_profile_menu(open_page: Callable[..., Page]):
    alice, bob = open_page(), open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")
    bob.goto("/")
    post_from(bob, "Bob builds a thing")
    alice.goto("/@bob")
    follow_button(alice, "Follow").click()
    expect(follow_button(alice, "Unfollow")).to_be_visible()
    alice.goto("/")
    expect(article(alice, "Bob builds a thing")).to_be_visible()

    # Block: bob's posts leave alice's home, and bob is told only on her profile that he is blocked.
    alice.goto("/@bob")
    profile_menu(alice, "bob").get_by_role("button", name="Block", exact=True).click()
    expect(profile_menu(alice, "bob").get_by_role("button", name="Unblock")).to_be_visible()
    alice.goto("/")
    expect(article(alice, "Bob builds a thing")).to_have_count(0)
    bob.goto("/@alice")
    expect(bob.get_by_text("You are blocked.")).to_be_visible()
    expect(follow_button(bob, "Follow")).to_have_count(0)
    alice.goto("/@bob")
    profile_menu(alice, "bob").get_by_role("button", name="Unblock").click()
    expect(profile_menu(alice, "bob").get_by_role("button", name="Block", exact=True)).to_be_visible()
    bob.goto("/@alice")
    expect(bob.get_by_text("You are blocked.")).to_have_count(0)

    # The block ended the follow; alice follows again, then mutes: his posts leave her home, Unmute brings
    # them back (a refill, run by a worker).
    follow_button(alice, "Follow").click()
    expect(follow_button(alice, "Unfollow")).to_be_visible()
    alice.goto("/")
    expect(article(alice, "Bob builds a thing")).to_be_visible()
    alice.goto("/@bob")
    profile_menu(alice, "bob").get_by_role("button", name="Mute", exact=True).click()
    expect(profile_menu(alice, "bob").get_by_role("button", name="Unmute")).to_be_visible()
    expect(article(alice, "Bob builds a thing")).to_be_visible()  # a mute hides nothing on his profile
    bob.goto("/")
    post_from(bob, "Posted while muted")
    alice.goto("/")
    expect(article(alice, "Bob builds a thing")).to_have_count(0)
    expect(article(alice, "Posted while muted")).to_have_count(0)
    alice.goto("/@bob")
    profile_menu(alice, "bob").get_by_role("button", name="Unmute").click()
    expect(profile_menu(alice, "bob").get_by_role("button", name="Mute", exact=True)).to_be_visible()
    run_worker_burst()
    alice.goto("/")
    expect(article(alice, "Bob builds a thing")).to_be_visible()
    expect(article(alice, "Posted while muted")).to_be_visible()  # never delivered to her: the refill brought it

"""Editing a post in a real browser (issue 19): alice posts for her followers only and fixes it in place; bob's
open home swaps the new text in and shows "Edited" without a reload, and the history page lists both versions,
newest first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from media.tests import images
from socialsite.tests.browser.conftest import screenshot_dir
from socialsite.tests.browser.test_site import article, post_from, settled, sign_up_in

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


def test_an_edit_in_place_describes_removes_and_adds_images_and_the_history_shows_them(
    open_page: Callable[..., Page], tmp_path: Path
):
    """Issue 21's edits: the in-place edit box lists the post's image with "Describe this image" and Remove, and
    "Add images"; Save swaps in the post with its new images, and the history shows each version's."""
    alice = open_page()
    sign_up_in(alice, "carol", "Carol")
    flag, tile = tmp_path / "flag.jpg", tmp_path / "tile.png"
    flag.write_bytes(images.jpeg((300, 200)))
    tile.write_bytes(images.png((60, 60)))
    alice.goto("/")
    alice.get_by_label("Add images").set_input_files([flag])
    alice.get_by_role("textbox", name="Describe this image").fill("A flg")
    post_from(alice, "A picture to fix")

    article(alice, "A picture to fix").get_by_role("button", name="Edit").click()
    form = alice.locator("form.edit-form")
    settled(form.get_by_role("textbox", name="Edit your post"))
    kept = form.get_by_role("textbox", name="Describe this image")
    expect(kept).to_have_value("A flg")
    kept.fill("A flag")
    form.get_by_label("Add images").set_input_files([tile])
    expect(form.get_by_role("textbox", name="Describe this image")).to_have_count(2)
    form.get_by_role("textbox", name="Describe this image").nth(1).fill("A green tile")
    form.screenshot(path=screenshot_dir() / "edit-images.png")
    form.get_by_role("textbox", name="Edit your post").fill("")
    save = form.get_by_role("button", name="Save")
    expect(save).to_be_enabled()  # images alone make a post
    save.click()
    expect(form).to_have_count(0)
    post = alice.locator("article.status").first
    expect(post.get_by_role("img", name="A flag")).to_be_visible()
    expect(post.get_by_role("img", name="A green tile")).to_be_visible()

    post.get_by_role("button", name="Edit").click()
    settled(form.get_by_role("textbox", name="Edit your post"))
    form.get_by_label("Remove image 1").check()
    form.get_by_role("button", name="Save").click()
    expect(form).to_have_count(0)
    expect(post.get_by_role("img")).to_have_count(1)

    post.get_by_role("link", name="Edited").click()
    versions = alice.locator("ol.versions li.version")
    expect(versions).to_have_count(3)
    expect(versions.nth(0).get_by_role("img", name="A green tile")).to_be_visible()
    expect(versions.nth(1).get_by_role("img")).to_have_count(2)
    expect(versions.nth(2).get_by_role("img", name="A flg")).to_be_visible()

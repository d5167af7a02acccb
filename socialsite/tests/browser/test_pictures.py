"""Pictures in a real browser (issue 21), by what a person and a screen reader meet: alice adds two images in the
post box, describes each, removes a third she picked by mistake and posts; bob's open home shows them live with
their alt texts; bob opens one full size and closes it with Escape; a sensitive image stays hidden until "Show
sensitive content"."""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from media.tests import images
from socialsite import testing
from socialsite.tests.browser.conftest import screenshot_dir
from socialsite.tests.browser.test_site import article, post_from, settled, sign_up_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def picture_files(tmp_path: Path) -> list[Path]:
    files = []
    for name, data in (
        ("flag.jpg", images.jpeg((800, 500))),
        ("tile.png", images.png((120, 120))),
        ("oops.gif", images.gif()),
    ):
        path = tmp_path / name
        path.write_bytes(data)
        files.append(path)
    return files


def test_images_with_alt_texts_reach_an_open_home_live_and_open_full_size(
    open_page: Callable[..., Page], tmp_path: Path
):
    alice, bob = open_page(), open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")
    bob.goto("/@alice")
    bob.get_by_role("button", name="Follow", exact=True).click()
    expect(bob.get_by_role("button", name="Unfollow", exact=True)).to_be_visible()
    bob.goto("/")
    bob.evaluate("window.stillTheSamePage = true")

    alice.goto("/")
    flag, tile, oops = picture_files(tmp_path)
    alice.get_by_label("Add images").set_input_files([flag, tile, oops])
    descriptions = alice.get_by_role("textbox", name="Describe this image")
    expect(descriptions).to_have_count(3)
    # Each picked picture shows its preview (a local object URL the page's policy lets load).
    previews = alice.locator(".compose-media-item img")
    expect(previews).to_have_count(3)
    for index in range(3):
        expect(previews.nth(index)).not_to_have_js_property("naturalWidth", 0)
    alice.get_by_role("button", name="Remove image 3").click()
    expect(descriptions).to_have_count(2)
    descriptions.nth(0).fill("A flag, half blue and half red")
    descriptions.nth(1).fill("A plain green tile")
    post_button = alice.get_by_role("button", name="Post", exact=True)
    expect(post_button).to_be_enabled()  # images alone make a post
    alice.get_by_role("textbox", name="What's happening?").fill("Two pictures from the trip")
    post_button.click()
    expect(article(alice, "Two pictures from the trip").get_by_role("img")).to_have_count(2)

    post = article(bob, "Two pictures from the trip")
    expect(post.get_by_role("img", name="A flag, half blue and half red")).to_be_visible()
    expect(post.get_by_role("img", name="A plain green tile")).to_be_visible()
    assert bob.evaluate("window.stillTheSamePage === true")  # arrived live, no reload
    bob.screenshot(path=screenshot_dir() / "pictures-home.png")
    size = post.get_by_role("img", name="A flag, half blue and half red").evaluate(
        "img => [img.complete, img.naturalWidth]"
    )
    assert size == [True, 640] or not size[0]  # the 640 px preview (still loading counts as lazy)

    post.get_by_role("link", name="A flag, half blue and half red").click()
    viewer = bob.get_by_role("dialog")
    expect(viewer).to_be_visible()
    full = viewer.get_by_role("img", name="A flag, half blue and half red")
    expect(full).to_have_js_property("naturalWidth", 800)  # the original, not the preview
    bob.screenshot(path=screenshot_dir() / "pictures-viewer.png")
    bob.keyboard.press("Escape")
    expect(viewer).to_be_hidden()
    expect(post.get_by_role("link", name="A flag, half blue and half red")).to_be_focused()


def run_worker_with_the_sites_database() -> None:
    """Drain the job queue with a real worker process seeing the test's database (as the daphne under test does)."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env["DATABASE_URL"] = testing.database_url()
    done = subprocess.run(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "rqworker", "--burst", "default"],
        env=env,
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def test_a_large_image_is_processed_by_a_job_and_the_post_arrives_live_when_ready(
    open_page: Callable[..., Page], tmp_path: Path
):
    alice, bob = open_page(), open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")
    bob.goto("/@alice")
    bob.get_by_role("button", name="Follow", exact=True).click()
    expect(bob.get_by_role("button", name="Unfollow", exact=True)).to_be_visible()
    bob.goto("/")
    bob.evaluate("window.stillTheSamePage = true")

    harbour = tmp_path / "harbour.jpg"
    harbour.write_bytes(images.jpeg((1300, 900)))  # 1.17 megapixels: over SOCIALSITE_MEDIA_SYNC_MAX_PIXELS
    alice.goto("/")
    alice.get_by_label("Add images").set_input_files([harbour])
    alice.get_by_role("textbox", name="Describe this image").fill("A wide harbour")
    alice.get_by_role("textbox", name="What's happening?").fill("Harbour at dawn")
    alice.get_by_role("button", name="Post", exact=True).click()
    expect(alice.get_by_text("Your post will appear as soon as its images are processed.")).to_be_visible()
    expect(bob.get_by_text("Harbour at dawn")).to_have_count(0)

    run_worker_with_the_sites_database()
    post = article(bob, "Harbour at dawn")
    image = post.get_by_role("img", name="A wide harbour")
    expect(image).to_be_visible()
    expect(image).to_have_js_property("naturalWidth", 640)
    assert bob.evaluate("window.stillTheSamePage === true")  # arrived live, no reload


def test_a_sensitive_image_is_hidden_until_show_sensitive_content(open_page: Callable[..., Page], tmp_path: Path):
    alice = open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    flag = picture_files(tmp_path)[0]
    alice.get_by_label("Add images").set_input_files([flag])
    alice.get_by_role("textbox", name="Describe this image").fill("Something graphic")
    alice.get_by_role("checkbox", name="Sensitive").check()
    alice.get_by_role("textbox", name="What's happening?").fill("Careful with this one")
    alice.get_by_role("button", name="Post", exact=True).click()

    alice.goto("/")
    post = article(alice, "Careful with this one")
    image = post.get_by_role("img", name="Something graphic")
    reveal = post.get_by_text("Show sensitive content")
    expect(reveal).to_be_visible()
    expect(image).to_be_hidden()
    alice.screenshot(path=screenshot_dir() / "pictures-sensitive.png")
    reveal.click()
    expect(image).to_be_visible()
    expect(reveal).to_be_hidden()
    expect(post.get_by_role("link", name="Something graphic")).to_be_focused()


def test_a_file_over_the_limit_is_refused_in_the_post_box_before_it_is_sent(
    open_page: Callable[..., Page], tmp_path: Path
):
    alice = open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    big = tmp_path / "huge.jpg"
    big.write_bytes(b"\xff\xd8" + bytes(11 * 1024 * 1024))
    flag = picture_files(tmp_path)[0]
    alice.get_by_label("Add images").set_input_files([big, flag])
    expect(alice.get_by_role("alert")).to_have_text("huge.jpg: Images may be at most 10 MB.")
    expect(alice.get_by_role("textbox", name="Describe this image")).to_have_count(1)  # the flag only


def test_show_sensitive_content_works_without_javascript(open_page: Callable[..., Page], tmp_path: Path):
    """The same post with JavaScript off: the <details> opens from the keyboard, no script needed."""
    alice = open_page(javascript=False)
    sign_up_in(alice, "alice", "Alice Liddell")
    alice.get_by_label("Add images").set_input_files([picture_files(tmp_path)[0]])
    alice.get_by_role("checkbox", name="Sensitive").check()
    alice.get_by_role("textbox", name="What's happening?").fill("Careful, no script")
    alice.get_by_role("button", name="Post", exact=True).click()
    post = article(alice, "Careful, no script")
    image = post.locator(".media-items img")
    expect(image).to_be_hidden()
    post.locator("summary", has_text="Show sensitive content").focus()
    alice.keyboard.press("Enter")
    expect(image).to_be_visible()


def test_an_avatar_set_in_the_settings_shows_on_her_posts(open_page: Callable[..., Page], tmp_path: Path):
    alice = open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    post_from(alice, "My first post")
    avatar = article(alice, "My first post").locator("img.avatar")
    expect(avatar).to_have_js_property("naturalWidth", 40)  # the generated initials
    photo = tmp_path / "me.jpg"
    photo.write_bytes(images.jpeg((600, 450)))

    alice.goto("/settings/profile")
    alice.get_by_label("Avatar", exact=True).set_input_files(photo)
    alice.get_by_role("button", name="Save").click()
    expect(alice.get_by_text("Profile saved.")).to_be_visible()
    alice.goto("/")
    expect(article(alice, "My first post").locator("img.avatar")).to_have_js_property(
        "naturalWidth", 400
    )  # square, at most 400 px


def test_without_javascript_the_post_box_sends_images_and_their_descriptions_in_one_submit(
    open_page: Callable[..., Page], tmp_path: Path
):
    alice = open_page(javascript=False)
    sign_up_in(alice, "alice", "Alice Liddell")
    flag, tile, _ = picture_files(tmp_path)
    alice.get_by_label("Add images").set_input_files([flag, tile])
    alice.get_by_text("Describe your images").click()
    alice.get_by_label("Describe image 1").fill("A flag")
    alice.get_by_label("Describe image 2").fill("A tile")
    alice.get_by_role("textbox", name="What's happening?").fill("Posted without scripts")
    alice.get_by_role("button", name="Post", exact=True).click()
    post = article(alice, "Posted without scripts")
    expect(post.get_by_role("img", name="A flag")).to_be_visible()
    expect(post.get_by_role("img", name="A tile")).to_be_visible()
    post.get_by_role("link", name="A flag").click()  # the full image, as a page of its own
    expect(alice).to_have_url(re.compile(r"/media/[^/]+/original$"))


def test_an_image_dropped_on_the_post_box_or_pasted_into_it_is_added(open_page: Callable[..., Page]):
    alice = open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    make_transfer = """(b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
        return transfer;
    }"""
    picture = base64.b64encode(images.png((40, 40))).decode()
    alice.locator("#compose").dispatch_event("drop", {"dataTransfer": alice.evaluate_handle(make_transfer, picture)})
    descriptions = alice.get_by_role("textbox", name="Describe this image")
    expect(descriptions).to_have_count(1)
    alice.evaluate(
        """(transfer) => {
            const event = new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true });
            document.querySelector("#id_message").dispatchEvent(event);
        }""",
        alice.evaluate_handle(make_transfer, picture),
    )
    expect(descriptions).to_have_count(2)
    descriptions.nth(0).fill("Dropped")
    descriptions.nth(1).fill("Pasted")
    alice.get_by_role("button", name="Post", exact=True).click()
    post = alice.locator("article.status").first
    expect(post.get_by_role("img", name="Dropped")).to_be_visible()
    expect(post.get_by_role("img", name="Pasted")).to_be_visible()


def test_a_reply_opened_under_a_post_carries_an_image(open_page: Callable[..., Page], tmp_path: Path):
    alice = open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    post_from(alice, "Show me your desk")
    post = article(alice, "Show me your desk")
    post.get_by_role("button", name="Reply").click()  # the reply box, swapped in under the post (htmx)
    reply = alice.locator("form.reply-form")
    settled(reply.get_by_role("textbox", name="Your reply"))
    reply.get_by_label("Add images").set_input_files(picture_files(tmp_path)[1])
    reply.get_by_role("textbox", name="Describe this image").fill("A tidy green desk")
    reply.get_by_role("textbox", name="Your reply").fill("Here it is")
    reply.get_by_role("button", name="Post reply").click()
    expect(article(alice, "Here it is").get_by_role("img", name="A tidy green desk")).to_be_visible()

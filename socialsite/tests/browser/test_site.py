"""What people see in a real browser: signing up, following, posts arriving and leaving live, paging, a phone
screen, and the whole site with JavaScript off."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from accounts.services import sign_up
from socialsite.tests.browser.conftest import PHONE, screenshot_dir
from timelines import limits, selectors, services

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"
# A home page with everything it loads (HTML, CSS, htmx, site.js), as served: static files compressed by WhiteNoise.
MAX_PAGE_WEIGHT_BYTES = 60_000


def sign_up_in(page: Page, login: str, name: str) -> None:
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(login)
    page.get_by_label("Display name").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text(f"Logged in as @{login}")).to_be_visible()


def settled(box: Locator) -> Locator:
    """``box``, the text box of a form htmx just swapped in, once the swap has settled: htmx focuses it then (and
    media.js sets up the form's images). Text typed into another field before that can land in ``box`` instead,
    as Playwright's fill types into whatever holds the focus (a busy machine's settle came mid-fill once)."""
    expect(box).to_be_focused()
    return box


def post_from(page: Page, message: str) -> None:
    page.get_by_role("textbox", name="What's happening?").fill(message)
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page.locator("article.status", has_text=message)).to_be_visible()
    # The live stream can show the post before the form's own answer comes back and empties the box: wait for
    # that too, or the next post typed meanwhile would be wiped.
    expect(page.get_by_role("textbox", name="What's happening?")).to_have_value("")


def article(page: Page, text: str):
    return page.locator("article.status", has_text=text)


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_two_people_follow_each_other_and_see_posts_come_and_go_live(open_page: Callable[..., Page]):
    alice, bob = open_page(), open_page()
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")

    bob.goto("/@alice")
    expect(bob.get_by_role("heading", name="Alice Liddell @alice")).to_be_visible()
    bob.get_by_role("button", name="Follow", exact=True).click()
    expect(bob.get_by_role("button", name="Unfollow", exact=True)).to_be_focused()  # in place, focus kept
    expect(bob.locator(".counts")).to_contain_text("1 follower")

    alice_uid = selectors.get_user_by_login(login="alice").id
    for message in ("Good morning, socialsite!", "Timelines are sorted sets. Who knew?", "Reading chapter 8 tonight."):
        services.post_status(uid=alice_uid, message=message)

    bob.goto("/")
    expect(bob.locator("#timeline article.status")).to_have_count(3)
    weight = bob.evaluate(
        "() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]"
        ".map(entry => [entry.name, entry.encodedBodySize, entry.decodedBodySize])"
    )
    assert 0 < sum(encoded for _, encoded, _ in weight) < MAX_PAGE_WEIGHT_BYTES, weight
    bob.evaluate("window.stillTheSamePage = true")

    alice.goto("/")
    post_box = alice.get_by_role("textbox", name="What's happening?")
    post_button = alice.get_by_role("button", name="Post", exact=True)
    expect(post_button).to_be_disabled()  # empty
    post_box.fill("x" * (limits.MAX_MESSAGE_LENGTH + 1))
    expect(post_button).to_be_disabled()  # too long
    expect(alice.locator("#compose-counter")).to_have_text("1 characters over the limit")
    post_box.fill("Hello from Alice <script>alert('no')</script>")
    expect(post_button).to_be_enabled()
    post_button.click()
    expect(article(alice, "Hello from Alice <script>alert('no')</script>")).to_be_visible()
    expect(post_box).to_have_value("")

    live = article(bob, "Hello from Alice <script>alert('no')</script>")
    expect(live).to_be_visible()  # without a reload:
    assert bob.evaluate("window.stillTheSamePage") is True
    expect(live.get_by_role("link", name="Alice Liddell @alice")).to_have_attribute("href", "/@alice")
    expect(live.locator("time")).to_have_text("just now")
    expect(live.get_by_role("button", name="Delete")).to_have_count(0)  # never on someone else's post
    bob.screenshot(path=str(screenshot_dir() / "home-live.png"))

    mine = article(alice, "Hello from Alice")
    mine.get_by_role("button", name="Delete").click()
    expect(mine.get_by_text("Delete this post?")).to_be_visible()
    mine.get_by_role("button", name="Cancel").click()  # changing one's mind leaves every button in place
    expect(mine.get_by_text("Delete this post?")).to_have_count(0)
    expect(mine.get_by_role("button", name="Reply")).to_be_visible()
    mine.get_by_role("button", name="Delete").click()
    expect(mine.get_by_text("Delete this post?")).to_be_visible()
    mine.get_by_role("button", name="Delete").click()
    expect(mine).to_have_count(0)
    expect(live).to_have_count(0)  # gone from Bob's open page too
    assert bob.evaluate("window.stillTheSamePage") is True

    post_from(alice, "A second thought")
    expect(article(bob, "A second thought")).to_be_visible()
    bob.goto("/@alice")
    bob.screenshot(path=str(screenshot_dir() / "profile.png"))
    bob.get_by_role("button", name="Unfollow", exact=True).click()
    expect(bob.get_by_role("button", name="Follow", exact=True)).to_be_visible()
    expect(bob.locator(".counts")).to_contain_text("0 followers")
    bob.goto("/")
    expect(article(bob, "A second thought")).to_have_count(0)
    expect(bob.get_by_role("heading", name="Who to follow")).to_be_visible()


def test_paging_through_a_hundred_posts_shows_each_once_while_new_ones_arrive(open_page: Callable[..., Page]):
    page = open_page()
    sign_up_in(page, "pat", "Pat Pager")
    uid = selectors.get_user_by_login(login="pat").id
    posted = [services.post_status(uid=uid, message=f"Post number {i}") for i in range(100)]

    page.goto("/")
    timeline = page.locator("#timeline article.status")
    expect(timeline).to_have_count(limits.DEFAULT_PAGE_SIZE)
    arrived = [services.post_status(uid=uid, message=f"Arrived while reading {i}") for i in range(2)]
    expect(timeline).to_have_count(limits.DEFAULT_PAGE_SIZE + 2)  # live, on top

    # The first "Load more" from the keyboard: focus moves to the first post it brought.
    more = page.get_by_role("link", name="Load more")
    more.focus()
    page.keyboard.press("Enter")
    expect(page.locator(f"#status-{posted[-limits.DEFAULT_PAGE_SIZE - 1]}")).to_be_focused()
    while page.get_by_role("link", name="Load more").count():
        shown = timeline.count()
        page.get_by_role("link", name="Load more").click()
        expect(timeline).not_to_have_count(shown)
    expect(page.get_by_text("That's everything.")).to_be_visible()

    ids = timeline.evaluate_all("articles => articles.map(a => Number(a.dataset.id))")
    assert len(ids) == len(set(ids)) == 102
    assert ids == list(reversed(posted + arrived))


def test_the_site_fits_a_phone_screen(open_page: Callable[..., Page]):
    page = open_page(PHONE)
    page.goto("/")
    assert no_horizontal_scroll(page)
    sign_up_in(page, "phoebe_with_a_long", "Phoebe Longname-Withoutspaces")
    assert no_horizontal_scroll(page)
    others = [sign_up(login=f"friend{i}", name=f"Friend Number {i}", password=PASSWORD) for i in range(3)]
    for other in others:
        services.post_status(uid=other.uid, message="A" * 100 + " https://example.com/" + "b" * 120)
    uid = selectors.get_user_by_login(login="phoebe_with_a_long").id
    services.post_status(uid=uid, message="Small screens deserve a tidy timeline, too.")
    page.goto("/")
    expect(page.get_by_role("heading", name="Who to follow")).to_be_visible()
    page.get_by_role("button", name="Follow", exact=True).first.click()
    expect(page.get_by_role("button", name="Unfollow", exact=True)).to_have_count(1)
    page.reload()
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(screenshot_dir() / "phone-home.png"))
    for path in ("/@phoebe_with_a_long", "/@friend0", "/@friend0/followers", "/@nobody_here", "/accounts/password/"):
        page.goto(path)
        assert no_horizontal_scroll(page), path
    page.goto("/@friend0")
    page.screenshot(path=str(screenshot_dir() / "phone-profile.png"))


def test_everything_works_with_javascript_off(open_page: Callable[..., Page]):
    page = open_page(javascript=False)
    sign_up(login="otto", name="Otto Other", password=PASSWORD)
    sign_up_in(page, "nojs", "No Script")
    post_from(page, "Plain forms still work")
    page.goto("/@otto")
    page.get_by_role("button", name="Follow", exact=True).click()
    expect(page.get_by_text("You now follow @otto.")).to_be_visible()
    page.goto("/")
    mine = article(page, "Plain forms still work")
    mine.get_by_role("button", name="Delete").click()
    expect(page.get_by_role("heading", name="Delete this post?")).to_be_visible()
    page.get_by_role("button", name="Delete").click()
    expect(page.get_by_text("Post deleted.")).to_be_visible()
    expect(article(page, "Plain forms still work")).to_have_count(0)

    uid = selectors.get_user_by_login(login="nojs").id
    for i in range(limits.DEFAULT_PAGE_SIZE + 1):
        services.post_status(uid=uid, message=f"Numbered {i}")
    page.goto("/")
    page.get_by_role("link", name="Load more").click()
    expect(page).to_have_url(re.compile(r"/\?max_id=\d+$"))
    expect(article(page, "Numbered 0")).to_be_visible()


def test_accounts_log_out_log_in_and_change_password(open_page: Callable[..., Page]):
    page = open_page()
    page.goto("/")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    sign_up_in(page, "quinn", "Quinn")
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Create an account")).to_be_visible()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("QUINN")  # any capitalisation
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_text("Logged in as @quinn")).to_be_visible()
    page.get_by_role("link", name="Password").click()
    page.get_by_label("Old password").fill(PASSWORD)
    page.get_by_label("New password", exact=True).fill("another horse battery staple")
    page.get_by_label("New password confirmation").fill("another horse battery staple")
    page.get_by_role("button", name="Change password").click()
    expect(page.get_by_text("Your password was changed.")).to_be_visible()
    page.goto("/@nobody_here")
    expect(page.get_by_role("heading", name="No such user.")).to_be_visible()

"""The moderators' admin in a real browser: an admin removes a post found by a marker, suspends and
unsuspends an account while a follower's live home and a public stream are open, and reads the dashboard."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from accounts.services import report
from socialsite import testing
from socialsite.tests.browser.conftest import screenshot_dir
from socialsite.tests.browser.test_security import RECORD_VIOLATIONS, violations
from socialsite.tests.browser.test_site import PASSWORD, article, post_from, sign_up_in
from timelines import selectors, services

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MARKER = "zebra-marker-7731"
WIDE = {"width": 1280, "height": 800}  # the admin's lists beside its navigation sidebar


def read_stream(url: str, seen: list[str], opened: threading.Event, last: str) -> None:
    """Collect the messages of a ``sample.json`` stream up to the one that reads ``last``. ``opened`` is set once
    the server answered: it does so only once the stream is subscribed."""
    with urllib.request.urlopen(url, timeout=2 * testing.WAIT_SECONDS) as response:
        opened.set()
        for line in response:
            if line.strip():
                seen.append(json.loads(line).get("message", ""))
            if seen and seen[-1] == last:
                return


def run_action(admin: Page, login: str, action: str, button: str, reason: str) -> None:
    admin.goto("/admin/accounts/user/")
    admin.get_by_role("checkbox", name=f"Select this object for an action - {login}").check()
    admin.get_by_role("combobox").select_option(action)
    admin.get_by_role("button", name="Go").click()
    admin.get_by_label("Reason").fill(reason)
    admin.get_by_role("button", name=button, exact=True).click()
    expect(admin.locator(".messagelist")).to_contain_text(f"{button}ed 1 account(s).")


def test_an_admin_removes_a_post_suspends_and_unsuspends_and_reads_the_dashboard(
    open_page: Callable[..., Page], site_url: str
):
    alice, bob, admin = open_page(), open_page(), open_page(WIDE)
    admin.context.add_init_script(RECORD_VIOLATIONS)
    sign_up_in(alice, "alice", "Alice Liddell")
    sign_up_in(bob, "bob", "Bob Builder")
    sign_up_in(open_page(), "root", "Root")  # the password hashed as the site does
    User.objects.filter(username="root").update(is_staff=True, is_superuser=True)
    alice_uid = selectors.get_user_by_login(login="alice").id
    bob_uid = selectors.get_user_by_login(login="bob").id
    services.follow_user(uid=bob_uid, other_uid=alice_uid)
    post_from(alice, f"Buy now {MARKER}")
    post_from(alice, "Tea at five, everyone")
    report(
        reporter=User.objects.get(username="bob"),
        reported=User.objects.get(username="alice"),
        reason="spam",
        comment="Selling things in every post",
        status_ids=[entry.id for entry in selectors.get_status_messages(uid=alice_uid, timeline="profile")],
    )
    posts_made = 2

    # Moderation -> Statuses: find the marker, remove the post with a reason.
    admin.goto("/admin/")
    admin.get_by_label("Username").fill("root")
    admin.get_by_label("Password").fill(PASSWORD)
    admin.get_by_role("button", name="Log in").click()
    admin.locator(".app-moderation").get_by_role("link", name="Statuses").click()
    admin.get_by_role("search").get_by_role("textbox", name="Search").fill(MARKER)
    admin.get_by_role("button", name="Search").click()
    expect(admin.locator("tr.status-row")).to_have_count(1)
    assert violations(admin) == []
    admin.get_by_role("link", name="Remove post").click()
    admin.get_by_label("Reason").fill("Spam")
    admin.get_by_role("button", name="Remove post").click()
    expect(admin.locator(".messagelist")).to_contain_text("Removed post")
    bob.goto("/")
    expect(article(bob, "Tea at five")).to_be_visible()
    expect(article(bob, MARKER)).to_have_count(0)
    alice.goto("/notifications")
    expect(alice.get_by_text("Your post was removed by the moderators: Spam")).to_be_visible()

    # Suspend alice while bob's live home and a firehose stream are open.
    seen: list[str] = []
    opened = threading.Event()
    reader = threading.Thread(
        target=read_stream,
        daemon=True,
        args=(
            f"{site_url}/statuses/sample.json?identifier=admin-test&percent=100",
            seen,
            opened,
            "Bob closes the stream",
        ),
    )
    reader.start()
    assert opened.wait(testing.WAIT_SECONDS), "the stream did not open"
    run_action(admin, "alice", "suspend", "Suspend", "Ban evasion")
    expect(article(bob, "Tea at five")).to_have_count(0)  # live, no reload
    services.post_status(uid=alice_uid, message="Posted while suspended")
    services.post_status(uid=bob_uid, message="Bob after the suspension")
    posts_made += 2
    expect(article(bob, "Bob after the suspension")).to_be_visible()
    services.post_status(uid=bob_uid, message="Bob closes the stream")
    posts_made += 1
    # The stream sends in order: once the last post is in, whatever came before it is too.
    assert testing.wait_until(lambda: "Bob closes the stream" in seen), seen
    reader.join(timeout=testing.WAIT_SECONDS)
    assert "Bob after the suspension" in seen and "Posted while suspended" not in seen, seen
    login = open_page()
    login.goto("/accounts/login/")
    login.get_by_label("Username").fill("alice")
    login.get_by_label("Password").fill(PASSWORD)
    login.get_by_role("button", name="Log in").click()
    expect(login.get_by_text("This account is suspended")).to_be_visible()

    run_action(admin, "alice", "unsuspend", "Unsuspend", "Appeal granted")
    bob.goto("/")
    expect(article(bob, "Tea at five")).to_be_visible()

    admin.goto("/admin/dashboard/")
    admin.locator("#toggle-nav-sidebar").click()  # more room for the screenshots
    expect(admin.locator("section.chart svg")).to_have_count(5)
    expect(admin.get_by_test_id("posts-today")).to_have_text(str(posts_made))
    admin.screenshot(path=str(screenshot_dir() / "admin-dashboard.png"), full_page=True)
    assert violations(admin) == []  # the charts need no inline style or script
    admin.goto("/admin/accounts/report/")
    expect(admin.get_by_text("Selling things in every post")).to_be_visible()
    admin.screenshot(path=str(screenshot_dir() / "admin-reports.png"), full_page=True)
    assert violations(admin) == []

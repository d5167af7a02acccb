"""The content security policy in a real browser: the site's pages, htmx and site.js run under it without a single
violation, and the rate limits read well where people meet them."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from playwright.sync_api import Page, expect

from accounts.services import sign_up
from socialsite import ratelimits
from socialsite.tests.browser.test_site import PASSWORD, article, post_from, sign_up_in

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Playwright's init scripts run whatever the page's policy says, so this listener sees every violation.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});
"""


def violations(page: Page) -> list[str]:
    return page.evaluate("window.cspViolations")


def test_pages_htmx_and_the_live_timeline_work_under_the_policy(open_page: Callable[..., Page]):
    page = open_page()
    page.context.add_init_script(RECORD_VIOLATIONS)
    sign_up(login="otto", name="Otto Other", password=PASSWORD)
    page.goto("/")
    assert violations(page) == []
    response = page.goto("/accounts/signup/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    sign_up_in(page, "cspuser", "Policy Person")
    post_from(page, "Posted with htmx under a strict policy")  # htmx swap, site.js counter and announcements
    assert violations(page) == []
    page.goto("/@otto")
    page.get_by_role("button", name="Follow", exact=True).click()
    expect(page.get_by_role("button", name="Unfollow", exact=True)).to_be_visible()
    assert violations(page) == []
    for path in ("/search?q=posted", "/@cspuser", "/settings/profile", "/accounts/password/", "/nobody/here"):
        page.goto(path)
        assert violations(page) == [], path
    page.goto("/")
    expect(article(page, "Posted with htmx under a strict policy")).to_be_visible()
    assert violations(page) == []


def test_a_rate_limited_post_keeps_its_text_and_says_when_to_try_again(open_page: Callable[..., Page]):
    page = open_page()
    sign_up_in(page, "hasty", "Hasty Poster")
    # Spend hasty's posts (300 in 3 hours, the server's default) on the counters the server reads.
    request = RequestFactory().post("/compose")
    request.user = get_user_model().objects.get(username="hasty")
    count, _ = ratelimits.parse_rate(settings.RATE_LIMIT_POSTS_PER_USER)
    for _ in range(count):
        assert ratelimits.take(request, "posts").refused is None

    box = page.get_by_role("textbox", name="What's happening?")
    box.fill("One more thing")
    page.get_by_role("button", name="Post", exact=True).click()
    expect(page.locator("#notice")).to_have_text(re.compile(r"^Too many attempts, try again in \d+ minutes\.$"))
    expect(box).to_have_value("One more thing")  # nothing swapped: the text is still there to post later
    expect(article(page, "One more thing")).to_have_count(0)

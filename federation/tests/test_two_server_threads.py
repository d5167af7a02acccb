"""Threads across two socialsite servers on loopback (``peers.py``): a post of B's found on A brings the posts
above it (``federation.services.ancestors``), so its page on A shows the whole chain; and in Chromium, the replies
that A's job fetches from B for an open page appear on it without a reload."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect, sync_playwright

from federation.tests.conftest import PASSWORD
from federation.tests.peers import two_servers
from socialsite import testing
from socialsite.testing import wait_until

CHROMIUM = os.environ.get("SOCIALSITE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
WAIT_MILLISECONDS = int(testing.WAIT_SECONDS * 1000)
WORKERS = "from rq import suspension; from timelines.queue import get_queue; suspension.{}(get_queue().connection)"

SIGN_UP = """
from accounts.services import sign_up
for login in {logins!r}:
    print(sign_up(login=login, name=login.title(), password="a long enough password 42").uid)
"""


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    with two_servers(tmp_path_factory.mktemp("threads")) as pair:
        yield pair


def test_a_reply_found_by_its_address_shows_the_posts_above_it(servers):
    a, b = servers
    a.run(SIGN_UP.format(logins=["una"]))
    vic, wes, xan = (int(uid) for uid in b.run(SIGN_UP.format(logins=["vic", "wes", "xan"])).split())
    # A chain of three on B: vic's post, wes's reply to it, xan's reply to wes.
    last = b.run(
        f"""
        from timelines import services
        first = services.post_status(uid={vic}, message="Where it all began")
        second = services.post_status(uid={wes}, message="A reply in the middle", in_reply_to=first)
        print(services.post_status(uid={xan}, message="The last word", in_reply_to=second))
        """
    )
    # una pastes the address of xan's reply in A's search: A has none of the three yet.
    address = f"{b.url}/@xan/{last}"
    found = a.run(
        f"""
        from federation.services import lookup
        print(lookup.resolve_url("{address}")[1])
        """
    )
    page = f"""
        from django.test import Client
        from accounts.models import User
        from timelines import selectors
        browser = Client()
        browser.force_login(User.objects.get(username="una"))
        status = selectors.get_status(status_id={found})
        from timelines.templatetags.timeline_format import profile_url
        body = browser.get(profile_url(status.login) + "/{found}").content.decode()
        print(sum(text in body for text in ("Where it all began", "A reply in the middle", "The last word")))
        """
    assert wait_until(lambda: a.run(page) == "3"), a.run(page)
    shape = a.run(
        f"""
        from timelines import selectors
        thread = selectors.get_thread(status_id={found}, viewer_uid=None)
        print(" | ".join(item.entry.status.message for item in thread.ancestors))
        """
    )
    assert shape == "Where it all began | A reply in the middle"


def test_two_replies_to_a_post_missing_here_are_both_linked_under_it_by_the_one_fetch(servers):
    a, b = servers
    yan, zed = (int(uid) for uid in b.run(SIGN_UP.format(logins=["yan", "zed"])).split())
    first, second = b.run(
        f"""
        from timelines import services
        top = services.post_status(uid={yan}, message="A question for everyone")
        print(services.post_status(uid={zed}, message="One answer", in_reply_to=top))
        print(services.post_status(uid={yan}, message="Another answer", in_reply_to=top))
        """
    ).split()
    # Both replies reach A before its workers fetch the post they answer: one fetch, both linked under it.
    a.run(WORKERS.format("suspend"))
    try:
        found = [
            a.run(f"from federation.services import lookup; print(lookup.resolve_url('{b.url}/@{login}/{number}')[1])")
            for login, number in (("zed", first), ("yan", second))
        ]
    finally:
        a.run(WORKERS.format("resume"))
    above = """
        from timelines import selectors
        thread = selectors.get_thread(status_id={}, viewer_uid=None)
        print(" | ".join(item.entry.status.message for item in thread.ancestors) or "-")
        """
    for status_id in found:
        assert wait_until(lambda status_id=status_id: a.run(above.format(status_id)) == "A question for everyone"), (
            a.run(above.format(status_id))
        )


def test_in_a_browser_replies_fetched_for_an_open_page_appear_on_it_without_a_reload(servers):
    a, b = servers
    a.run(SIGN_UP.format(logins=["yara"]))
    yves, zoe = (int(uid) for uid in b.run(SIGN_UP.format(logins=["yves", "zoe"])).split())
    post = b.run(f'from timelines import services; print(services.post_status(uid={yves}, message="Anyone there?"))')
    found = a.run(f'from federation.services import lookup; print(lookup.resolve_url("{b.url}/@yves/{post}")[1])')
    # zoe answers on B; A has no reply: nobody there follows her.
    b.run(f'from timelines import services; services.post_status(uid={zoe}, message="Here, on B", in_reply_to={post})')
    path = a.run(
        f"""
        from timelines import selectors
        from timelines.templatetags.timeline_format import profile_url
        print(profile_url(selectors.get_status(status_id={found}).login) + "/{found}")
        """
    )
    a.run(WORKERS.format("suspend"))  # A's workers take no job: the page opens before the fetch is done
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(base_url=a.url).new_page()
                page.set_default_timeout(WAIT_MILLISECONDS)
                page.goto("/accounts/login/")
                page.get_by_label("Username").fill("yara")
                page.get_by_label("Password").fill(PASSWORD)
                page.get_by_role("button", name="Log in").click()
                expect(page.get_by_text("Logged in as @yara")).to_be_visible()
                page.goto(path)
                replies = page.locator("#replies-section")
                expect(replies).to_have_attribute("aria-busy", "true")
                reply = replies.locator("article.status", has_text="Here, on B")
                expect(reply).to_have_count(0)
                page.evaluate("window.stillTheSamePage = true")
                a.run(WORKERS.format("resume"))
                expect(reply).to_be_visible()  # without a reload:
                assert page.evaluate("window.stillTheSamePage") is True
                expect(replies).not_to_have_attribute("aria-busy", "true")
            finally:
                browser.close()
    finally:
        a.run(WORKERS.format("resume"))

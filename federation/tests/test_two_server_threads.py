"""Threads across two socialsite servers on loopback (``peers.py``): a post of B's found on A brings the posts
above it (``federation.services.ancestors``), so its page on A shows the whole chain."""

from __future__ import annotations

import pytest

from federation.tests.peers import two_servers
from socialsite.testing import wait_until

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

"""Issue 19 on the client API: an open ``user`` stream forgets a suspension once it ends, so the account's later
posts reach it again, as they would reach a reloaded home."""

from __future__ import annotations

import pytest

from api.tests.helpers import person
from api.tests.test_mastodon_py import Collector, hub, log_in
from socialsite import testing
from timelines.services import moderation

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_open_user_stream_shows_an_unsuspended_accounts_later_posts(site):
    person("uma")
    person("vic")
    uma = log_in(site, "uma", ["read", "write", "follow"])
    vic = log_in(site, "vic", ["read", "follow"])
    uid = int(uma.me()["id"])
    vic.account_follow(uid)
    before = hub(site)["subscriptions"]
    listener = Collector()
    handle = vic.stream_user(listener, run_async=True)
    try:
        assert testing.wait_until(lambda: hub(site)["subscriptions"] > before), "the stream never subscribed"
        moderation.suspend_user(uid=uid)
        moderation.unsuspend_user(uid=uid)
        uma = log_in(site, "uma", ["read", "write"])
        posted = uma.status_post("back after my suspension")
        assert testing.wait_until(lambda: posted["id"] in [s["id"] for s in listener.updates]), listener.updates
    finally:
        handle.close()

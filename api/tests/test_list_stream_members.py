"""The ``list`` stream follows the list's members as they change (issue 20): someone added while it is open streams
from their next post, someone removed stops at once; through Mastodon.py's ``stream_list`` (SSE) against the shared
live daphne (``conftest.site``)."""

from __future__ import annotations

import pytest

from api.tests.helpers import person
from api.tests.test_mastodon_py import Collector, hub, log_in
from socialsite import testing
from timelines import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_list_stream_follows_members_added_and_removed_while_it_is_open(site):
    owner_uid = person("lena").uid
    kai_uid, lux_uid = person("kai").uid, person("lux").uid
    lena = log_in(site, "lena", ["read"])
    kai = log_in(site, "kai", ["read", "write"])
    lux = log_in(site, "lux", ["read", "write"])
    list_id = services.create_user_list(uid=owner_uid, name="friends")
    services.follow_user_list(uid=owner_uid, other_uid=kai_uid, list_id=list_id)
    listed = Collector()
    before = hub(site)["subscriptions"]
    handle = lena.stream_list(list_id, listed, run_async=True)
    try:
        assert testing.wait_until(lambda: hub(site)["subscriptions"] > before), "the stream never subscribed"
        first = kai.status_post("kai, a member from the start")
        assert testing.wait_until(lambda: [s["id"] for s in listed.updates] == [first["id"]]), listed.updates
        services.follow_user_list(uid=owner_uid, other_uid=lux_uid, list_id=list_id)
        added = lux.status_post("lux, added while the stream was open")
        assert testing.wait_until(lambda: len(listed.updates) == 2), listed.updates
        assert listed.updates[1]["id"] == added["id"]
        services.unfollow_user_list(uid=owner_uid, other_uid=kai_uid, list_id=list_id)
        kai.status_post("kai, no longer on the list")
        last = lux.status_post("lux again")
        assert testing.wait_until(lambda: len(listed.updates) == 3), listed.updates
        assert [s["id"] for s in listed.updates] == [first["id"], added["id"], last["id"]]
    finally:
        handle.close()

"""Mastodon.py paging up with ``fetch_previous`` (``min_id``) after many posts came in: the page just above
the one in hand, never the newest one (which would skip what lies between), on the home, a tag's timeline, the
public timeline, a list and an account's posts; ``since_id`` still answers the newest above it, as Mastodon does."""

from __future__ import annotations

import pytest

from api.tests.helpers import person
from api.tests.test_mastodon_py import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def ids(page) -> list:
    return [status["id"] for status in page]


def test_fetch_previous_pages_up_without_skipping(site):
    person("vic")
    person("wes")
    vic = log_in(site, "vic", ["read", "write", "follow"])
    wes = log_in(site, "wes", ["read", "write"])
    vic.account_follow(wes.me()["id"])
    reading = vic.list_create("wes")
    vic.list_accounts_add(reading["id"], [wes.me()["id"]])
    early = [wes.status_post(f"#paging early {n}") for n in range(3)]
    readers = {
        "home": lambda: vic.timeline_home(limit=2),
        "tag": lambda: vic.timeline_hashtag("paging", limit=2),
        "public": lambda: vic.timeline_public(limit=2),
        "list": lambda: vic.timeline_list(reading["id"], limit=2),
        "account": lambda: vic.account_statuses(wes.me()["id"], limit=2),
    }
    pages = {name: read() for name, read in readers.items()}
    for name, page in pages.items():
        assert ids(page) == [early[2]["id"], early[1]["id"]], name
    later = [wes.status_post(f"#paging later {n}") for n in range(7)]
    for name, page in pages.items():
        # The two posts just above the page in hand, newest first: later[1], later[0]; then the next two up.
        above = vic.fetch_previous(page)
        assert ids(above) == [later[1]["id"], later[0]["id"]], name
        assert ids(vic.fetch_previous(above)) == [later[3]["id"], later[2]["id"]], name
    # since_id: the newest ones above it (a gap is the caller's to fill), as Mastodon answers it.
    newest = vic.timeline_home(limit=2, since_id=early[2]["id"])
    assert ids(newest) == [later[6]["id"], later[5]["id"]]

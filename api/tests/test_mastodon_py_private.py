"""Mastodon.py on the private parts of the API, against the shared live daphne (``conftest.site``): bookmarks
(``status_bookmark``, ``bookmarks`` with ``fetch_next``), and direct conversations with their streams."""

from __future__ import annotations

import pytest

from api.tests.helpers import person
from api.tests.test_mastodon_py import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_mastodon_py_bookmarks_page_by_page(site):
    person("ada")
    person("bob")
    ada = log_in(site, "ada", ["read", "write"])
    bob = log_in(site, "bob", ["read", "write"])
    posts = [ada.status_post(f"worth keeping {n}") for n in range(3)]
    for post in posts:
        assert bob.status_bookmark(post["id"])["bookmarked"] is True
    assert bob.status(posts[0]["id"])["bookmarked"] is True
    assert ada.status(posts[0]["id"])["bookmarked"] is False
    first = bob.bookmarks(limit=2)
    assert [status["id"] for status in first] == [posts[2]["id"], posts[1]["id"]]
    second = bob.fetch_next(first)
    assert [status["id"] for status in second] == [posts[0]["id"]]
    assert bob.fetch_next(second) is None
    assert [status["id"] for status in bob.fetch_previous(second)] == [posts[2]["id"], posts[1]["id"]]
    assert bob.status_unbookmark(posts[1]["id"])["bookmarked"] is False
    assert [status["id"] for status in bob.bookmarks()] == [posts[2]["id"], posts[0]["id"]]
    assert ada.bookmarks() == []

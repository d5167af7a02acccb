"""The token's person's own flags (``favourited``, ``reblogged``, ``bookmarked``; ``muted`` stays false: the site has
no muted conversations) on the statuses of notifications, read and streamed (issue 20)."""

from __future__ import annotations

import pytest

from api.tests.helpers import Api, person, token_for
from timelines import services

pytestmark = pytest.mark.django_db


def test_notification_statuses_carry_the_readers_own_flags():
    ada, bob = person("ada"), person("bob")
    as_ada = Api(token_for("ada"))
    mention = services.post_status(uid=bob.uid, message="@ada look at this")
    other = services.post_status(uid=bob.uid, message="@ada and this")
    assert as_ada.post(f"/api/v1/statuses/{mention}/favourite").status_code == 200
    assert as_ada.post(f"/api/v1/statuses/{mention}/bookmark").status_code == 200
    assert as_ada.post(f"/api/v1/statuses/{mention}/reblog").status_code == 200
    found = {item["status"]["id"]: item["status"] for item in as_ada.get("/api/v1/notifications").json()}
    flags = ("favourited", "reblogged", "bookmarked", "muted")
    assert [found[str(mention)][flag] for flag in flags] == [True, True, True, False]
    assert [found[str(other)][flag] for flag in flags] == [False, False, False, False]
    [single] = [item for item in as_ada.get("/api/v1/notifications").json() if item["status"]["id"] == str(mention)]
    alone = as_ada.get(f"/api/v1/notifications/{single['id']}").json()
    assert alone["status"]["bookmarked"] is True and alone["status"]["favourited"] is True
    # bob's own notifications about ada's like and repost show his post with his own flags: none.
    for item in Api(token_for("bob")).get("/api/v1/notifications").json():
        assert [item["status"][flag] for flag in flags] == [False, False, False, False]
    assert ada.uid

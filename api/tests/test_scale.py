"""Issue 23 through the client API: a home merging a celebrity's pulled posts pages by ``Link`` headers like any
other, and an API call is a visit that rebuilds a home dropped while its owner was away."""

from __future__ import annotations

import re
import time

import pytest
from django.test import override_settings

from api.tests.helpers import Api, person, token_for
from timelines import services
from timelines.services import idle, visits

pytestmark = pytest.mark.django_db


@override_settings(FANOUT_PULL_THRESHOLD=1)
def test_the_api_home_pages_through_pulled_posts_without_repeats_or_gaps():
    ada, star, fan = person("ada"), person("star"), person("fan")
    services.follow_user(uid=fan.uid, other_uid=star.uid)
    services.follow_user(uid=ada.uid, other_uid=star.uid)  # two followers: past the threshold of one
    api = Api(token_for("ada"))
    ids = [str(services.post_status(uid=(star if n % 2 else ada).uid, message=f"post {n}")) for n in range(5)]
    seen: list[str] = []
    response = api.get("/api/v1/timelines/home", {"limit": "2"})
    while True:
        seen += [status["id"] for status in response.json()]
        match = re.search(r'<([^>]+)>; rel="next"', response.get("Link", ""))
        if not match:
            break
        response = api.get(match.group(1).removeprefix("http://testserver"))
    assert seen == list(reversed(ids))


def test_an_api_call_rebuilds_a_home_dropped_while_its_owner_was_away():
    ada, bob = person("ada"), person("bob")
    services.follow_user(uid=ada.uid, other_uid=bob.uid)
    api = Api(token_for("ada"))
    before = services.post_status(uid=bob.uid, message="before ada left")
    assert idle.sweep_all(now=time.time() + 31 * 86_400) == 2
    during = services.post_status(uid=bob.uid, message="while ada was away")

    visits.forget_all()  # a month later, in this process
    home = api.get("/api/v1/timelines/home").json()
    assert [status["id"] for status in home] == [str(during), str(before)]

"""What a new post costs in Redis round trips: on one server, a public post to a few followers takes no more than
the book's own ``post_status`` (listings 8.4 to 8.6), though it also keeps the local timeline, the search words,
the counters and the live events, and reads whether its author has followers on other servers (with its writes:
``hooks.remote_audience_key``; ``federation/tests/test_outbound.py`` checks that such followers still get it)."""

from __future__ import annotations

import pytest

from socialsite.redis_client import is_cluster
from timelines import selectors, services
from timelines.tests.helpers import home_timeline_of, redis_traffic

# The book's post to 10 followers: HGET login + INCR, HMSET + HINCRBY, ZADD profile, ZRANGEBYSCORE followers,
# then the homes' ZADDs in one pipeline.
BOOK_POST_ROUND_TRIPS = 5


@pytest.mark.django_db
def test_a_public_post_to_ten_followers_takes_no_more_round_trips_than_the_books_post(alice, followers_of):
    followers = followers_of(alice, 10)
    services.post_status(uid=alice, message="warm up: scripts loaded, connections pooled")

    with redis_traffic() as traffic:
        status_id = services.post_status(uid=alice, message="hello world")

    assert all(home_timeline_of(follower)[0] == status_id for follower in followers)
    assert selectors.get_local_timeline(count=1)[0]["id"] == status_id
    assert [entry["id"] for entry in selectors.search(query="hello", count=1).statuses] == [status_id]
    if is_cluster():
        pytest.skip("on a cluster the writes go to several nodes in turn (README: Architecture, Redis Cluster)")
    assert traffic["round_trips"] <= BOOK_POST_ROUND_TRIPS

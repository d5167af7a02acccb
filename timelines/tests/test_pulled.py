"""Hybrid fan-out (issue 23): an account with more followers than SOCIALSITE_FANOUT_PULL_THRESHOLD is not pushed
into its followers' homes; its posts are merged in when a home is read, newest first, by the same cursors and the
same policy, and crossing the threshold either way leaves every home right."""

from __future__ import annotations

import pytest
from django.test import override_settings

from socialsite.redis_client import get_redis
from timelines import audit, keys, limits, selectors, services
from timelines.tests.helpers import home_timeline_of

pytestmark = pytest.mark.django_db


def home_of(uid: int, count: int = 50, **paging: int) -> list[int]:
    """The ids ``uid`` sees on their home page, newest first."""
    return [entry.status.id for entry in selectors.get_status_messages(uid=uid, count=count, **paging)]


@pytest.fixture
def star(make_user, followers_of):
    """An account with three followers, past a threshold of two: its posts are pulled."""
    uid = make_user("star")
    followers_of(uid, 3)
    return uid


@override_settings(FANOUT_PULL_THRESHOLD=2)
def test_a_celebritys_posts_are_merged_into_homes_when_read_not_written(star, alice, bob):
    services.follow_user(uid=alice, other_uid=star)
    services.follow_user(uid=alice, other_uid=bob)
    posted = []
    for n in range(6):
        posted.append(services.post_status(uid=star if n % 2 else bob, message=f"post {n}"))
    stars = posted[1::2]
    assert not set(stars) & set(home_timeline_of(alice))  # nothing written into the home
    assert stars[-1] in home_timeline_of(star)  # the author's own home has it as ever
    assert home_of(alice) == posted[::-1]
    # The same cursors: pages by max_id and since_id, and page numbers.
    assert home_of(alice, count=2) == posted[:3:-1]
    assert home_of(alice, count=2, max_id=posted[4]) == [posted[3], posted[2]]
    assert home_of(alice, count=10, since_id=posted[2]) == posted[:2:-1]
    assert home_of(alice, count=2, page=2) == [posted[3], posted[2]]
    assert home_of(bob) == posted[::2][::-1]  # bob does not follow the star: nothing merged


@override_settings(FANOUT_PULL_THRESHOLD=2)
def test_merged_posts_go_through_the_policy(star, alice, bob, carol):
    for follower in (alice, bob, carol):
        services.follow_user(uid=follower, other_uid=star)
    followers_only = services.post_status(uid=star, message="for followers", visibility="private")
    public = services.post_status(uid=star, message="for everyone")
    services.post_status(uid=star, message="a word with @alice", visibility="direct")
    services.mute_user(uid=bob, other_uid=star)
    services.block_user(uid=star, other_uid=carol)
    assert home_of(alice) == [public, followers_only]
    assert home_of(bob) == []  # muted
    assert home_of(carol) == []  # blocked (the block also ended the follow)
    deleted = services.post_status(uid=star, message="soon gone")
    assert home_of(alice)[0] == deleted
    services.delete_status(uid=star, status_id=deleted)
    assert home_of(alice) == [public, followers_only]
    assert not get_redis().zscore(keys.pulled_posts(star), deleted)


@override_settings(FANOUT_PULL_THRESHOLD=2)
def test_crossing_the_threshold_either_way_needs_nothing_by_hand(make_user, alice, bob, carol):
    star = make_user("rising")
    services.follow_user(uid=alice, other_uid=star)
    services.follow_user(uid=bob, other_uid=star)
    pushed = services.post_status(uid=star, message="two followers: pushed")
    services.follow_user(uid=carol, other_uid=star)  # three: past the threshold
    pulled = services.post_status(uid=star, message="three followers: pulled")
    services.unfollow_user(uid=bob, other_uid=star)  # two again
    pushed_again = services.post_status(uid=star, message="two followers: pushed again")
    assert home_timeline_of(alice) == [pushed_again, pushed]
    assert home_of(alice) == [pushed_again, pulled, pushed]  # none missing, none twice
    assert home_of(carol) == [pushed_again, pulled, pushed]  # the follow's copy holds the pulled post too
    assert home_of(bob) == []


@override_settings(FANOUT_PULL_THRESHOLD=2)
def test_a_read_merges_at_most_the_capped_number_of_accounts_the_most_recent_first(
    make_user, followers_of, alice, monkeypatch
):
    monkeypatch.setattr(limits, "MAX_MERGED_PER_READ", 2)
    stars = [make_user(f"star{n}") for n in range(3)]
    for uid in stars:
        followers_of(uid, 2)
        services.follow_user(uid=alice, other_uid=uid)
    posts = [services.post_status(uid=uid, message="hello") for uid in stars]
    assert home_of(alice) == posts[:0:-1]  # the least recently active account is left out of this read
    again = services.post_status(uid=stars[0], message="back on top")
    assert home_of(alice) == [again, posts[2], posts[0]]  # star1 is the one left out now


@override_settings(FANOUT_PULL_THRESHOLD=2)
def test_audit_finds_a_deleted_status_left_among_pulled_posts(star, alice):
    services.follow_user(uid=alice, other_uid=star)
    kept = services.post_status(uid=star, message="kept")
    lost = services.post_status(uid=star, message="its hash lost by hand")
    get_redis().delete(keys.status(lost))
    assert home_of(alice) == [kept]  # readers skip it at once
    report = audit.audit(fix=True)
    zombies = next(finding for finding in report.findings if finding.name == "zombie ids")
    assert f"{keys.pulled_posts(star)} holds deleted status {lost}" in zombies.examples
    assert get_redis().zrange(keys.pulled_posts(star), 0, -1) == [str(kept)]

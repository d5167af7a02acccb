"""Tags (issue 10): public tag timelines, case-insensitive, capped and trimmed, paged by cursor; trending over
the last 24 hours by hourly bucket; a deleted post leaves its tags' timelines and counts."""

from __future__ import annotations

import time

import pytest

from socialsite.redis_client import get_redis
from timelines import keys, limits, selectors, services
from timelines.services.discovery import index_status
from timelines.tests import policies

HOUR = 3600


def tag_ids(tag: str, **kwargs) -> list[int]:
    return [status.id for status in selectors.get_tag_timeline(tag=tag, **kwargs)]


def test_a_tag_timeline_holds_its_public_posts_newest_first_whatever_the_case(alice, bob):
    first = services.post_status(uid=alice, message="#Redis tips")
    second = services.post_status(uid=bob, message="more about #REDIS and #django")
    services.post_status(uid=bob, message="no tags, just redis")
    for spelling in ("redis", "Redis", "#ReDiS"):
        assert tag_ids(spelling) == [second, first]
    assert tag_ids("django") == [second]
    assert tag_ids("nothing") == [] and tag_ids("123") == [] and tag_ids("not a tag") == []
    assert get_redis().zcard(keys.tag_timeline("redis")) == 2


def test_a_tag_used_twice_in_one_post_lists_and_counts_it_once(alice):
    status_id = services.post_status(uid=alice, message="#twice and #Twice again")
    assert tag_ids("twice") == [status_id]
    assert selectors.get_trending_tags() == [("twice", 1)]


def test_tag_timelines_are_capped_and_trimmed_on_every_insert(alice, monkeypatch):
    monkeypatch.setattr(limits, "TAG_TIMELINE_SIZE", 5)
    posted = [services.post_status(uid=alice, message=f"#capped number {i}") for i in range(8)]
    assert get_redis().zcard(keys.tag_timeline("capped")) == 5
    assert tag_ids("capped") == list(reversed(posted))[:5]


def test_cursor_pages_of_a_tag_never_repeat_or_skip_even_while_posts_arrive(alice, bob):
    posted = [services.post_status(uid=alice, message=f"#paged post {i}") for i in range(23)]
    seen: list[int] = []
    max_id = None
    while True:
        page = tag_ids("paged", count=5, max_id=max_id)
        if not page:
            break
        seen.extend(page)
        max_id = page[-1]
        services.post_status(uid=bob, message="#paged a newer post that must not show up on older pages")
    assert seen == list(reversed(posted))


def test_deleting_a_post_takes_it_out_of_its_tag_timelines_and_trending(alice):
    kept = services.post_status(uid=alice, message="#keep this")
    gone = services.post_status(uid=alice, message="#keep #gone soon")
    services.delete_status(uid=alice, status_id=gone)
    assert tag_ids("keep") == [kept] and tag_ids("gone") == []
    assert get_redis().zscore(keys.tag_timeline("keep"), gone) is None
    assert selectors.get_trending_tags() == [("keep", 1)]


def test_trending_ranks_the_ten_tags_most_used_in_the_last_24_hours(alice, bob):
    for rank in range(12):  # tag t0 is used 12 times, t11 once
        for _ in range(12 - rank):
            services.post_status(uid=alice, message=f"#t{rank} counts")
    trending = selectors.get_trending_tags()
    assert trending == [(f"t{rank}", 12 - rank) for rank in range(10)]
    assert selectors.get_trending_tags(count=3) == trending[:3]


def test_trending_sums_the_24_hourly_buckets_up_to_now_and_no_older_one(alice):
    now = time.time()
    fake_id = iter(range(10**9, 10**10))

    def used(tag: str, hours_ago: float, times: int = 1) -> None:
        for _ in range(times):
            status = {"id": next(fake_id), "uid": alice, "message": f"#{tag}", "posted": now - hours_ago * HOUR}
            index_status(status)

    used("steady", 0, 2)
    used("steady", 23, 2)  # the oldest bucket of the window
    used("stale", 24, 10)  # one hour too old
    used("stale", 30, 10)
    assert selectors.get_trending_tags(now=now) == [("steady", 4)]
    # Read a day later, the same buckets are the past: only what is newer than 24 hours counts.
    assert selectors.get_trending_tags(now=now + 23 * HOUR) == [("steady", 2)]
    assert selectors.get_trending_tags(now=now + 24 * HOUR) == []
    # Each bucket expires on its own, a little after it leaves the window.
    ttl = get_redis().ttl(keys.trending_bucket(keys.trending_hour(now)))
    assert limits.TRENDING_BUCKET_TTL_SECONDS - 60 <= ttl <= limits.TRENDING_BUCKET_TTL_SECONDS


@pytest.fixture
def refusing(settings, monkeypatch):
    """The refusing policy (``timelines.tests.policies``), refusing the ``recipient:author`` pairs given."""
    settings.TIMELINES_POLICY = policies.PATH

    def refuse(*pairs: tuple[int | None, int]) -> None:
        monkeypatch.setenv(policies.ENV, ",".join(policies.refusal(who, author) for who, author in pairs))

    return refuse


def test_a_post_the_public_may_not_see_stays_out_of_tag_timelines_and_trending(alice, bob, carol, refusing):
    refusing((None, alice))
    hidden = services.post_status(uid=alice, message="#secret plans")
    shown = services.post_status(uid=bob, message="#secret is out")
    assert tag_ids("secret") == [shown]
    assert get_redis().zscore(keys.tag_timeline("secret"), hidden) is None
    assert selectors.get_trending_tags() == [("secret", 1)]


def test_a_tag_page_shows_only_what_its_viewer_may_see(alice, bob, carol, refusing):
    alices = services.post_status(uid=alice, message="#shared from alice")
    bobs = services.post_status(uid=bob, message="#shared from bob")
    refusing((carol, alice))
    assert tag_ids("shared", viewer_uid=carol) == [bobs]
    assert tag_ids("shared", viewer_uid=bob) == [bobs, alices]

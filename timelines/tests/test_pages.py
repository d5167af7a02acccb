"""A page of statuses in one round trip (store.pages) and the per-process status cache behind it
(selectors.status_cache): what a reader sees stays exactly what Redis holds, counters, deletions, reposts,
flags and the policy included, whether a status comes from the cache or from Redis."""

from __future__ import annotations

import pytest

from socialsite import redis_client
from timelines import keys, selectors, services
from timelines.selectors import status_cache
from timelines.services import moderation
from timelines.store import pages

pytestmark = pytest.mark.django_db


def home(uid: int) -> list[int]:
    return [entry.entry_id for entry in selectors.get_status_messages(uid=uid, count=30)]


@pytest.fixture
def network(alice, bob, carol):
    """bob and carol follow alice; alice has posts, one liked and one reposted by bob, one repost of carol's."""
    services.follow_user(uid=bob, other_uid=alice)
    services.follow_user(uid=carol, other_uid=alice)
    services.follow_user(uid=alice, other_uid=carol)
    first = services.post_status(uid=alice, message="first #redis")
    second = services.post_status(uid=alice, message="second")
    by_carol = services.post_status(uid=carol, message="carol's own")
    services.repost_status(uid=alice, status_id=by_carol)
    services.like_status(uid=bob, status_id=first)
    services.repost_status(uid=bob, status_id=second)
    return {"first": first, "second": second, "by_carol": by_carol}


def test_the_page_script_and_the_pipelines_read_the_same(alice, bob, carol, network):
    """On one server the script reads a page (on a cluster, pipelines do): the pipelines say the same."""
    for viewer in (bob, carol, None):
        for key, owner in ((keys.home_timeline(bob), keys.user(bob)), (keys.profile_timeline(alice), keys.user(alice))):
            scripted = pages.read_page(key, owner, viewer=viewer, count=30)
            assert scripted is not None and scripted.ids
            piped = pages._read_in_pipelines(scripted.ids, viewer)
            assert piped == scripted
            assert pages.read_ids(scripted.ids, viewer=viewer) == scripted


def test_the_page_script_reads_suspended_and_limited_authors_for_viewers_with_and_without_sets_of_their_own(
    alice, bob, carol, network
):
    """The script asks whether any of the viewer's and the site's sets exist at once; the answer per set stays
    what the pipelines read: bob has likes and reposts, carol none, and the site gains a limited account, then a
    suspended one."""
    dave = services.create_user(login="dave", name="Dave")
    services.follow_user(uid=carol, other_uid=bob)
    services.post_status(uid=bob, message="bob's own")
    for change in (lambda: None, lambda: moderation.limit_user(uid=bob), lambda: moderation.suspend_user(uid=carol)):
        change()
        for viewer in (bob, carol, dave, None):
            for owner in (carol, bob):
                scripted = pages.read_page(keys.home_timeline(owner), keys.user(owner), viewer=viewer, count=30)
                assert scripted is not None and scripted.ids
                assert pages._read_in_pipelines(scripted.ids, viewer) == scripted
    read = pages.read_page(keys.home_timeline(carol), keys.user(carol), viewer=None, count=30)
    assert read is not None and "limited" in read.relations.flags[bob]


def test_a_missing_timeline_owner_reads_as_none_and_an_empty_timeline_as_empty(alice):
    assert pages.read_page(keys.home_timeline(999), keys.user(999), viewer=None, count=30) is None
    empty = pages.read_page(keys.profile_timeline(alice), keys.user(alice), viewer=alice, count=30)
    assert empty is not None and empty.ids == [] and empty.entries == []


def test_flags_and_counters_come_from_redis_on_every_read(alice, bob, network):
    entries = {entry.id: entry for entry in selectors.get_status_messages(uid=bob, count=30)}
    first = entries[network["first"]]
    assert first.liked and first.like_count == 1 and not first.reposted
    assert entries[network["second"]].reposted and entries[network["second"]].repost_count == 1
    # The same statuses again, now from the cache: new counters and flags show at once.
    services.unlike_status(uid=bob, status_id=network["first"])
    services.post_status(uid=bob, message="a reply", in_reply_to=network["first"])
    services.like_status(uid=alice, status_id=network["first"])
    entries = {entry.id: entry for entry in selectors.get_status_messages(uid=bob, count=30)}
    first = entries[network["first"]]
    assert not first.liked and first.like_count == 1 and first.reply_count == 1


def test_a_deleted_status_and_a_repost_of_a_deleted_original_vanish_from_cached_pages(alice, bob, carol, network):
    assert network["by_carol"] in {entry.id for entry in selectors.get_status_messages(uid=bob, count=30)}
    services.delete_status(uid=alice, status_id=network["second"])
    services.delete_status(uid=carol, status_id=network["by_carol"])
    shown = {entry.id for entry in selectors.get_status_messages(uid=bob, count=30)}
    assert network["second"] not in shown and network["by_carol"] not in shown
    assert network["first"] in shown


def test_a_flushed_redis_that_reuses_ids_never_shows_a_cached_status(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    old = services.post_status(uid=alice, message="before the flush")
    assert [entry.message for entry in selectors.get_status_messages(uid=bob)] == ["before the flush"]
    for server in redis_client.primaries():
        server.flushall()
    alice_again = services.create_user(login="alice", name="Alice")
    bob_again = services.create_user(login="bob", name="Bob")
    services.follow_user(uid=bob_again, other_uid=alice_again)
    new = services.post_status(uid=alice_again, message="after the flush")
    assert new == old  # the same id again
    assert [entry.message for entry in selectors.get_status_messages(uid=bob_again)] == ["after the flush"]


def test_the_policy_still_decides_on_cached_pages(alice, bob, carol, network):
    assert network["first"] in home(bob)
    services.block_user(uid=alice, other_uid=bob)
    assert not {network["first"], network["second"]} & set(home(bob))
    services.unblock_user(uid=alice, other_uid=bob)
    moderation.suspend_user(uid=alice)
    assert not {network["first"], network["second"]} & set(home(carol))
    moderation.unsuspend_user(uid=alice)
    services.mute_user(uid=carol, other_uid=alice)
    assert network["first"] not in home(carol)
    # A mute hides the muted person from feeds only: their profile still shows the post.
    profile = selectors.get_status_messages(uid=alice, timeline="profile", viewer_uid=carol)
    assert network["first"] in {entry.id for entry in profile}


def test_the_cache_keeps_at_most_its_size_and_can_be_turned_off(alice, bob, settings):
    services.follow_user(uid=bob, other_uid=alice)
    for i in range(12):
        services.post_status(uid=alice, message=f"post {i}")
    status_cache.forget()
    settings.TIMELINES_STATUS_CACHE_SIZE = 5
    assert len(selectors.get_status_messages(uid=bob, count=12)) == 12
    assert len(status_cache._records) == 5
    settings.TIMELINES_STATUS_CACHE_SIZE = 0
    status_cache.forget()
    assert len(selectors.get_status_messages(uid=bob, count=12)) == 12
    assert not status_cache._records


def test_a_home_reads_the_same_after_the_server_forgot_its_scripts(alice, bob, network):
    """A page's script goes by its digest alone (no wrapper around the EVALSHA): a server that lost its scripts
    (restarted, or SCRIPT FLUSH) is sent the script again and the page reads as before."""
    before = home(bob)
    redis_client.get_redis().script_flush()
    assert before and home(bob) == before

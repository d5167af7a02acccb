"""Reading timelines: order, paging by page number and by stable cursors, deleted statuses skipped."""

from __future__ import annotations

import pytest

from timelines import exceptions, keys, selectors, services, store
from timelines.services import moderation


def ids(statuses: list[dict]) -> list[int]:
    return [status["id"] for status in statuses]


def test_timelines_read_newest_first_by_page(alice):
    posted = [services.post_status(uid=alice, message=f"{i}") for i in range(25)]
    newest_first = list(reversed(posted))
    assert ids(selectors.get_status_messages(uid=alice, count=10)) == newest_first[:10]
    assert ids(selectors.get_status_messages(uid=alice, page=3, count=10)) == newest_first[20:]
    assert selectors.get_status_messages(uid=alice, page=4, count=10) == []
    assert ids(selectors.get_status_messages(uid=alice, timeline="profile", count=5)) == newest_first[:5]


def test_max_id_paging_is_stable_while_new_posts_arrive(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    posted = [services.post_status(uid=alice, message=f"old {i}") for i in range(45)]
    seen: list[int] = []
    page = selectors.get_status_messages(uid=bob, count=20)
    while page:
        seen.extend(ids(page))
        for i in range(3):  # new posts land at the top between every page read
            services.post_status(uid=alice, message=f"new {len(seen)} {i}")
        page = selectors.get_status_messages(uid=bob, count=20, max_id=seen[-1])
    assert seen == list(reversed(posted))


def test_since_id_returns_only_newer_statuses(alice):
    first = [services.post_status(uid=alice, message=f"{i}") for i in range(5)]
    later = [services.post_status(uid=alice, message=f"later {i}") for i in range(3)]
    assert ids(selectors.get_status_messages(uid=alice, since_id=first[-1])) == list(reversed(later))
    assert ids(selectors.get_status_messages(uid=alice, since_id=later[-1])) == []


def test_a_cursor_whose_status_was_deleted_still_pages_exactly(alice):
    posted = [services.post_status(uid=alice, message=f"{i}") for i in range(10)]
    services.delete_status(uid=alice, status_id=posted[6])
    assert ids(selectors.get_status_messages(uid=alice, max_id=posted[6], count=3)) == [posted[5], posted[4], posted[3]]


def test_deleted_statuses_are_skipped_and_the_page_refilled(alice, bob, redis_db):
    services.follow_user(uid=bob, other_uid=alice)
    posted = [services.post_status(uid=alice, message=f"{i}") for i in range(10)]
    # Delete the three newest the way a zombie looks to a follower before the clean-up reaches them: the hash
    # is gone, the id remains in home.
    for status_id in posted[-3:]:
        store.statuses.delete_status_if_owner(status_id, alice)
    assert redis_db.zscore(keys.home_timeline(bob), posted[-1]) is not None
    page = selectors.get_status_messages(uid=bob, count=5)
    assert ids(page) == [posted[6], posted[5], posted[4], posted[3], posted[2]]


def test_page_size_is_clamped_and_bad_arguments_refused(alice):
    for i in range(3):
        services.post_status(uid=alice, message=f"{i}")
    assert len(selectors.get_status_messages(uid=alice, count=10_000)) == 3
    assert len(selectors.get_status_messages(uid=alice, count=0)) == 1
    with pytest.raises(ValueError):
        selectors.get_status_messages(uid=alice, timeline="mentions")
    with pytest.raises(ValueError):
        selectors.get_status_messages(uid=alice, page=0)


def test_an_existing_user_with_an_empty_timeline_reads_as_empty(alice):
    assert selectors.get_status_messages(uid=alice) == []
    with pytest.raises(exceptions.UnknownUser):
        selectors.get_status_messages(uid=alice + 100)


def test_people_read_again_show_their_changes_at_once(alice, bob):
    """get_users reuses a record only for the very same hash: a new name, a follow's counts and a suspension
    show on the next read, unknown users are skipped, and the order is the one asked for."""
    before = {user.id: user for user in selectors.get_users(uids=[alice, bob])}
    assert selectors.get_users(uids=[bob, alice]) == [before[bob], before[alice]]
    services.update_profile(uid=alice, name="Alice Renamed")
    services.follow_user(uid=bob, other_uid=alice)
    moderation.suspend_user(uid=bob)
    renamed, followed = selectors.get_users(uids=[alice, 999_999, bob])
    assert (renamed.name, renamed.followers) == ("Alice Renamed", before[alice].followers + 1)
    assert followed.following == before[bob].following + 1 and followed.suspended

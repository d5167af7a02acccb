"""Replies, threads and mentions (services.statuses, selectors.conversations), with personas."""

from __future__ import annotations

import pytest

from timelines import exceptions, selectors, services
from timelines.tests.helpers import home_timeline_of


def thread_ids(thread) -> tuple[list[int], int, list[tuple[int, int]]]:
    return (
        [item.id for item in thread.ancestors],
        thread.status.id,
        [(item.id, item.depth) for item in thread.descendants],
    )


def test_a_reply_names_its_parent_counts_on_it_and_reaches_the_repliers_followers(alice, bob, carol):
    services.follow_user(uid=carol, other_uid=bob)
    post = services.post_status(uid=alice, message="What is Redis?")
    reply = services.post_status(uid=bob, message="@alice an in-memory data store", in_reply_to=post)
    status = selectors.get_status(status_id=reply)
    assert (status.in_reply_to, status.in_reply_to_uid, status.in_reply_to_login, status.root) == (
        post,
        alice,
        "alice",
        post,
    )
    assert status.mentions == (alice,) and status.mention_logins == ("alice",)
    assert selectors.get_status(status_id=post).reply_count == 1
    assert reply in home_timeline_of(carol) and reply in home_timeline_of(bob)


def test_replying_to_a_missing_or_deleted_post_is_status_not_found_and_writes_nothing(alice, bob):
    post = services.post_status(uid=alice, message="soon gone")
    services.delete_status(uid=alice, status_id=post)
    for target in (post, 999_999, -3, 2**60, "x"):
        with pytest.raises(exceptions.StatusNotFound):
            services.post_status(uid=bob, message="hello?", in_reply_to=target)
    assert selectors.get_user(uid=bob).posts == 0


def test_a_thread_shows_ancestors_oldest_first_and_replies_as_a_tree_oldest_first(alice, bob, carol):
    root = services.post_status(uid=alice, message="root")
    first = services.post_status(uid=bob, message="first", in_reply_to=root)
    second = services.post_status(uid=carol, message="second", in_reply_to=root)
    deep = services.post_status(uid=alice, message="deep", in_reply_to=first)
    deeper = services.post_status(uid=bob, message="deeper", in_reply_to=deep)

    assert thread_ids(selectors.get_thread(status_id=root)) == (
        [],
        root,
        [(first, 1), (deep, 2), (deeper, 3), (second, 1)],
    )
    assert thread_ids(selectors.get_thread(status_id=deep)) == ([root, first], deep, [(deeper, 1)])


def test_thread_pages_never_repeat_or_skip_even_when_replies_arrive_or_go(alice, bob):
    root = services.post_status(uid=alice, message="root")
    replies = [services.post_status(uid=bob, message=f"reply {i}", in_reply_to=root) for i in range(7)]
    seen: list[int] = []
    page = selectors.get_thread(status_id=root, count=3)
    seen += [item.id for item in page.descendants]
    # Meanwhile a reply in the part already read is deleted, and a new one arrives at the end.
    services.delete_status(uid=bob, status_id=replies[0])
    late = services.post_status(uid=bob, message="late", in_reply_to=root)
    while page.next_cursor:
        page = selectors.get_thread(status_id=root, count=3, max_id=page.next_cursor)
        seen += [item.id for item in page.descendants]
    assert seen == [*replies, late]


def test_deleting_a_post_keeps_its_replies_and_marks_them(alice, bob):
    post = services.post_status(uid=alice, message="original")
    reply = services.post_status(uid=bob, message="an answer", in_reply_to=post)
    services.delete_status(uid=alice, status_id=post)
    kept = selectors.get_status(status_id=reply)
    assert kept.in_reply_to == post and kept.extra.get("in_reply_to_deleted") == "1"
    thread = selectors.get_thread(status_id=reply)
    assert [(item.id, item.entry) for item in thread.ancestors] == [(post, None)]


def test_deleting_a_reply_keeps_the_parents_count_exact(alice, bob, carol):
    post = services.post_status(uid=alice, message="ask me")
    kept = services.post_status(uid=bob, message="one", in_reply_to=post)
    gone = services.post_status(uid=carol, message="two", in_reply_to=post)
    services.delete_status(uid=carol, status_id=gone)
    assert selectors.get_status(status_id=post).reply_count == 1
    assert [item.id for item in selectors.get_thread(status_id=post).descendants] == [kept, gone]
    assert selectors.get_thread(status_id=post).descendants[1].entry is None


def test_replying_to_a_repost_answers_the_original(alice, bob, carol):
    post = services.post_status(uid=alice, message="repost me")
    services.repost_status(uid=bob, status_id=post)
    repost_id = home_timeline_of(bob)[0]
    reply = services.post_status(uid=carol, message="hi", in_reply_to=repost_id)
    assert selectors.get_status(status_id=reply).in_reply_to == post


def test_mentions_are_existing_users_only_case_insensitive_and_at_most_ten(alice, bob, make_user):
    extra = [make_user(f"m{i}") for i in range(12)]
    message = "@BOB @nobody_here " + " ".join(f"@m{i}" for i in range(12))
    status = selectors.get_status(status_id=services.post_status(uid=alice, message=message))
    assert status.mention_logins[:1] == ("bob",) and status.mentions[0] == bob
    assert len(status.mentions) == 9  # ten parsed, of which @nobody_here does not exist
    assert set(status.mentions[1:]) <= set(extra)

"""Bookmarks: a private list of saved posts (services.bookmarks, selectors.bookmarks), judged by the policy when
read, and the site's Bookmark button and /bookmarks page."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from socialsite.tests.people import logged_in
from timelines import exceptions, keys, limits, selectors, services
from timelines.services import erasure
from timelines.tests.helpers import home_timeline_of, run_worker_burst


def saved(uid: int, **kwargs) -> list[int]:
    return [entry.status.id for entry in selectors.get_bookmarks(uid=uid, **kwargs).entries]


def test_bookmarks_are_idempotent_newest_first_and_private_to_their_owner(alice, bob, carol):
    first = services.post_status(uid=alice, message="first")
    second = services.post_status(uid=alice, message="second")
    assert services.bookmark_status(uid=bob, status_id=first) is True
    assert services.bookmark_status(uid=bob, status_id=second) is True
    # A repeat changes nothing and keeps the first place.
    assert services.bookmark_status(uid=bob, status_id=first) is False
    assert saved(bob) == [second, first]
    assert saved(carol) == [] and saved(alice) == []
    # Nobody is told: the author gets no notification, the post no counter.
    assert selectors.get_notifications(uid=alice) == []
    assert services.unbookmark_status(uid=bob, status_id=second) is True
    assert services.unbookmark_status(uid=bob, status_id=second) is False
    assert saved(bob) == [first]


def test_a_repost_is_bookmarked_as_its_original(alice, bob, carol):
    original = services.post_status(uid=alice, message="worth keeping")
    services.repost_status(uid=carol, status_id=original)
    repost = selectors.get_status_messages(uid=carol, timeline="profile", count=1, viewer_uid=carol)[0].repost_id
    assert repost is not None and repost != original
    services.bookmark_status(uid=bob, status_id=repost)
    assert saved(bob) == [original]
    assert services.unbookmark_status(uid=bob, status_id=repost) is True
    assert saved(bob) == []


def test_a_post_one_may_not_see_cannot_be_bookmarked(alice, bob):
    services.set_private(uid=alice, private=True)
    hidden = services.post_status(uid=alice, message="followers only")
    with pytest.raises(exceptions.StatusNotFound):
        services.bookmark_status(uid=bob, status_id=hidden)
    with pytest.raises(exceptions.StatusNotFound):
        services.bookmark_status(uid=bob, status_id=10**9)
    with pytest.raises(exceptions.StatusNotFound):
        services.unbookmark_status(uid=bob, status_id=hidden)
    assert saved(bob) == []


def test_a_bookmark_of_a_post_one_can_no_longer_see_is_not_shown_until_it_shows_again(alice, bob, carol):
    services.follow_user(uid=bob, other_uid=alice)
    kept = services.post_status(uid=carol, message="still visible")
    hidden = services.post_status(uid=alice, message="for followers", visibility="private")
    gone = services.post_status(uid=alice, message="soon deleted")
    for status_id in (kept, hidden, gone):
        services.bookmark_status(uid=bob, status_id=status_id)
    assert saved(bob) == [gone, hidden, kept]
    services.delete_status(uid=alice, status_id=gone)
    services.unfollow_user(uid=bob, other_uid=alice)
    assert saved(bob) == [kept]
    # Following again, the post shows again: the bookmark was hidden at read, never dropped.
    services.follow_user(uid=bob, other_uid=alice)
    assert saved(bob) == [hidden, kept]
    services.block_user(uid=alice, other_uid=bob)
    assert saved(bob) == [kept]
    # Hidden, it answers as a post that does not exist, for removing as for adding.
    with pytest.raises(exceptions.StatusNotFound):
        services.unbookmark_status(uid=bob, status_id=hidden)
    services.unblock_user(uid=alice, other_uid=bob)
    services.follow_user(uid=bob, other_uid=alice)
    assert saved(bob) == [hidden, kept]


def test_a_direct_message_can_be_bookmarked_by_its_recipients_only(alice, bob, carol):
    message, _ = services.send_message(uid=alice, to=(bob,), message="just for you")
    services.bookmark_status(uid=bob, status_id=message)
    assert saved(bob) == [message]
    with pytest.raises(exceptions.StatusNotFound):
        services.bookmark_status(uid=carol, status_id=message)


def test_pages_of_bookmarks_never_repeat_or_skip(alice, bob):
    posts = [services.post_status(uid=alice, message=f"post {n}") for n in range(7)]
    for status_id in posts:  # bookmarked within the same microseconds: the cursors still differ
        services.bookmark_status(uid=bob, status_id=status_id)
    seen, before = [], None
    while True:
        page = selectors.get_bookmarks(uid=bob, count=3, before=before)
        seen.extend(entry.status.id for entry in page.entries)
        if page.next_before is None:
            break
        before = page.next_before
    assert seen == posts[::-1]
    newest = selectors.get_bookmarks(uid=bob, count=3)
    # Back towards the newest from the end of the first page: the 3 just above the cursor, newest first.
    back = selectors.get_bookmarks(uid=bob, count=3, after=newest.cursors[-1], oldest_first=True)
    assert [e.status.id for e in back.entries] == posts[::-1][:2]
    middle = selectors.get_bookmarks(uid=bob, count=2, after=selectors.get_bookmarks(uid=bob, count=5).cursors[-1])
    assert [e.status.id for e in middle.entries] == posts[::-1][:2]


def test_pages_say_whether_the_viewer_bookmarked_each_post(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    marked = services.post_status(uid=alice, message="marked")
    plain = services.post_status(uid=alice, message="plain")
    services.bookmark_status(uid=bob, status_id=marked)
    flags = {entry.status.id: entry.bookmarked for entry in selectors.get_status_messages(uid=bob, count=10)}
    assert flags == {marked: True, plain: False}
    assert selectors.get_entry(status_id=marked, viewer_uid=bob).bookmarked is True
    assert selectors.get_entry(status_id=marked, viewer_uid=alice).bookmarked is False


def test_a_full_list_drops_deleted_posts_before_refusing(alice, bob, monkeypatch):
    monkeypatch.setattr(limits, "MAX_BOOKMARKS", 3)
    posts = [services.post_status(uid=alice, message=f"post {n}") for n in range(5)]
    for status_id in posts[:3]:
        services.bookmark_status(uid=bob, status_id=status_id)
    with pytest.raises(exceptions.TooManyBookmarks):
        services.bookmark_status(uid=bob, status_id=posts[3])
    services.delete_status(uid=alice, status_id=posts[0])
    assert services.bookmark_status(uid=bob, status_id=posts[3]) is True
    assert saved(bob) == [posts[3], posts[2], posts[1]]
    assert len(selectors.get_bookmarks(uid=bob).cursors) == 3


def test_deleting_an_account_deletes_its_bookmarks(alice, bob, redis_db):
    post = services.post_status(uid=alice, message="kept by bob")
    services.bookmark_status(uid=bob, status_id=post)
    assert redis_db.exists(keys.bookmarks_of(bob))
    erasure.delete_account(uid=bob)
    run_worker_burst()
    assert not redis_db.exists(keys.bookmarks_of(bob))


# The site: the Bookmark button under every post, and /bookmarks linked from the header.


def buttons(html: str, status_id: int) -> str:
    found = re.search(rf'<div class="status-buttons" id="buttons-{status_id}">.*?\n</div>', html, re.S)
    assert found, f"no buttons for {status_id}"
    return found.group(0)


@pytest.mark.django_db
def test_the_bookmark_button_saves_a_post_and_the_bookmarks_page_lists_it():
    author, author_uid = logged_in("ada")
    reader, _ = logged_in("bea")
    post = services.post_status(uid=author_uid, message="a post to keep")
    page = reader.get(f"/@ada/{post}").content.decode()
    assert ">Bookmark</button>" in buttons(page, post)
    assert 'href="/bookmarks"' in page  # the header's link
    response = reader.post(f"/statuses/{post}/bookmark", {"next": f"/@ada/{post}"})
    assert response.status_code == 302
    page = reader.get(f"/@ada/{post}").content.decode()
    assert ">Remove bookmark</button>" in buttons(page, post)
    listing = reader.get("/bookmarks")
    assert listing.status_code == 200
    assert "a post to keep" in listing.content.decode() and 'aria-current="page">Bookmarks' in listing.content.decode()
    # The author's own view of the post is not touched by someone else's bookmark.
    assert ">Bookmark</button>" in buttons(author.get(f"/@ada/{post}").content.decode(), post)
    assert "a post to keep" not in author.get("/bookmarks").content.decode()
    # With htmx the buttons come back in place, switched.
    fragment = reader.post(f"/statuses/{post}/unbookmark", {"entry": post}, headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and ">Bookmark</button>" in fragment.content.decode()
    assert "No bookmarks yet." in reader.get("/bookmarks").content.decode()


@pytest.mark.django_db
def test_bookmarks_need_a_log_in_and_hidden_posts_are_404():
    reader, _ = logged_in("cleo")
    _, author_uid = logged_in("dan")
    services.set_private(uid=author_uid, private=True)
    hidden = services.post_status(uid=author_uid, message="followers only")
    assert Client().get("/bookmarks").status_code == 302
    assert Client().post(f"/statuses/{hidden}/bookmark").status_code == 302
    assert reader.post(f"/statuses/{hidden}/bookmark").status_code == 404
    assert reader.get("/bookmarks", {"before": "x"}).status_code == 400
    assert "followers only" not in reader.get("/bookmarks").content.decode()


@pytest.mark.django_db
def test_the_bookmarks_page_loads_more_without_repeating_or_skipping(monkeypatch):
    monkeypatch.setattr("timelines.views.bookmarks.PAGE_SIZE", 3)
    reader, reader_uid = logged_in("eve")
    _, author_uid = logged_in("fay")
    posts = [services.post_status(uid=author_uid, message=f"saved {n}") for n in range(7)]
    for status_id in posts:
        services.bookmark_status(uid=reader_uid, status_id=status_id)
    seen, path = [], "/bookmarks"
    while path:
        html = reader.get(path).content.decode()
        seen += [int(found) for found in re.findall(r'<article[^>]* id="status-(\d+)"', html)]
        more = re.search(r'<a href="(\?before=\d+)" rel="next"', html)
        path = "/bookmarks" + more.group(1) if more else ""
    assert seen == posts[::-1]


@override_settings(FANOUT_PULL_THRESHOLD=2)
def test_a_home_with_merged_posts_marks_the_bookmarked_ones(alice, bob, followers_of):
    # alice has more followers than the threshold: her posts are pulled into homes when read (hybrid fan-out).
    followers_of(alice, 3)
    services.follow_user(uid=bob, other_uid=alice)
    pulled = services.post_status(uid=alice, message="merged in at read time")
    other = services.post_status(uid=alice, message="also merged")
    services.bookmark_status(uid=bob, status_id=pulled)
    assert pulled not in home_timeline_of(bob)  # never written there: the page read merges it
    flags = {entry.status.id: entry.bookmarked for entry in selectors.get_status_messages(uid=bob, count=10)}
    assert flags == {pulled: True, other: False}

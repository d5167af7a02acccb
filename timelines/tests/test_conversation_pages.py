"""The pages of conversations, reposts, likes and notifications, driven with Django's test client."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from timelines import exceptions, limits, selectors, services
from timelines.tests.test_views import article, logged_in, status_ids

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/"}


def buttons(html: str) -> list[str]:
    return re.findall(r"<button[^>]*>([^<]+)</button>", html)


def test_each_post_links_author_and_age_and_shows_reply_repost_and_like_with_counts():
    _alice, alice_uid = logged_in("alice", "Alice")
    bob, bob_uid = logged_in("bob", "Bob")
    post = services.post_status(uid=alice_uid, message="#Redis tips for @bob https://example.com <b>!</b>")
    services.like_status(uid=bob_uid, status_id=post)
    html = article(bob.get("/@alice"), post)
    assert 'href="/@alice"' in html and f'href="/@alice/{post}"' in html
    assert buttons(html) == ["Reply", "Repost", "Unlike", "Bookmark"]
    assert re.search(r">Unlike</button> <span class=\"count\">1</span>", html)
    assert '<a class="tag" href="/tags/redis">#Redis</a>' in html
    assert '<a class="mention" href="/@bob">@bob</a>' in html
    assert '<a href="https://example.com" rel="nofollow noopener noreferrer ugc">https://example.com</a>' in html
    assert "&lt;b&gt;!&lt;/b&gt;" in html and "<b>!" not in html


def test_a_posts_page_shows_ancestors_the_post_its_replies_and_a_reply_form():
    _alice, alice_uid = logged_in("alice", "Alice")
    bob, bob_uid = logged_in("bob", "Bob")
    root = services.post_status(uid=alice_uid, message="root post")
    middle = services.post_status(uid=bob_uid, message="middle", in_reply_to=root)
    leaf = services.post_status(uid=alice_uid, message="leaf", in_reply_to=middle)
    page = bob.get(f"/@bob/{middle}")
    assert status_ids(page) == [root, middle, leaf]
    html = page.content.decode()
    assert "Replying to <a" in article(page, middle) and f'href="/@alice/{root}"' in article(page, middle)
    assert re.search(r'<label for="reply-\d+">Your reply</label>', html)
    assert re.search(r"<textarea[^>]*>@bob </textarea>", html) is None  # bob replying to himself: no prefill
    assert re.search(r"<textarea[^>]*>@alice </textarea>", bob.get(f"/@alice/{root}").content.decode())
    assert "Post reply" in html
    assert Client().get(f"/@alice/{middle}").status_code == 404  # the wrong author in the URL
    assert Client().get(f"/@bob/{middle}").status_code == 200  # anonymous visitors read threads


def test_the_reply_tree_indents_each_level_up_to_its_limit_and_keeps_a_deleted_reply_s_place():
    alice, alice_uid = logged_in("alice", "Alice")
    _bob, bob_uid = logged_in("bob", "Bob")
    root = services.post_status(uid=alice_uid, message="root post")
    chain, parent = [], root
    for level in range(limits.MAX_REPLY_DEPTH + 2):
        parent = services.post_status(uid=(bob_uid, alice_uid)[level % 2], message=f"level {level}", in_reply_to=parent)
        chain.append(parent)
    aside = services.post_status(uid=bob_uid, message="aside", in_reply_to=root)
    services.delete_status(uid=alice_uid, status_id=chain[1])
    html = alice.get(f"/@alice/{root}").content.decode()
    items = re.findall(
        r'<li class="reply depth-(\d+)" data-depth="(\d+)">\s*<(?:article|p)[^>]* id="status-(\d+)"', html
    )
    shown = [(int(status), int(depth), int(indent)) for indent, depth, status in items]
    expected = [(status, level + 1, min(level + 1, limits.MAX_REPLY_DEPTH)) for level, status in enumerate(chain)]
    assert shown == [*expected, (aside, 1, 1)]
    assert f'<p class="status gone" id="status-{chain[1]}">This post was deleted.</p>' in html


def test_replying_from_a_posts_page_and_in_place():
    _alice, alice_uid = logged_in("alice", "Alice")
    bob, _ = logged_in("bob", "Bob")
    post = services.post_status(uid=alice_uid, message="reply to me")
    response = bob.post(f"/@alice/{post}/reply", {"message": "@alice done"})
    assert response.status_code == 302 and response["Location"].startswith(f"/@alice/{post}#status-")
    form = bob.get(f"/@alice/{post}/reply", **HTMX).content.decode()
    assert "Your reply" in form and "@alice " in form
    response = bob.post(f"/@alice/{post}/reply", {"message": "in place"}, **HTMX)
    assert response.status_code == 200 and "Reply posted" in response.content.decode()
    assert selectors.get_status(status_id=post).reply_count == 2
    for message in ("", "   ", "x" * 281):
        response = bob.post(f"/@alice/{post}/reply", {"message": message})
        assert response.status_code == 400
    assert bob.post(f"/@alice/{post + 999}/reply", {"message": "to nothing"}).status_code == 404
    assert selectors.get_status(status_id=post).reply_count == 2


def test_like_and_repost_buttons_toggle_and_update_counts_in_place():
    _alice, alice_uid = logged_in("alice", "Alice")
    bob, _ = logged_in("bob", "Bob")
    post = services.post_status(uid=alice_uid, message="buttons")
    fragment = bob.post(f"/statuses/{post}/like", {"entry": str(post)}, **HTMX).content.decode()
    assert "Unlike" in buttons(fragment) and re.search(r">Unlike</button> <span class=\"count\">1</span>", fragment)
    fragment = bob.post(f"/statuses/{post}/repost", {"entry": str(post)}, **HTMX).content.decode()
    assert "Undo repost" in buttons(fragment)
    assert bob.post(f"/statuses/{post}/unlike", {"next": "/@alice"}).status_code == 302
    assert bob.post(f"/statuses/{post}/unrepost").status_code == 302
    status = selectors.get_status(status_id=post)
    assert (status.like_count, status.repost_count) == (0, 0)
    for action in ("like", "unlike", "repost", "unrepost"):
        assert bob.post(f"/statuses/{post + 999}/{action}").status_code in (302, 404)
        assert bob.get(f"/statuses/{post}/{action}").status_code == 405
    assert Client().post(f"/statuses/{post}/like").status_code == 302  # to log in
    assert selectors.get_status(status_id=post).like_count == 0


def test_a_missing_post_cannot_be_liked_or_reposted_from_a_page():
    bob, _ = logged_in("bob", "Bob")
    for action in ("like", "repost"):
        assert bob.post(f"/statuses/424242/{action}").status_code == 404


def test_the_likes_page_lists_liked_posts_most_recent_like_first():
    _, alice_uid = logged_in("alice", "Alice")
    _bob, bob_uid = logged_in("bob", "Bob")
    first = services.post_status(uid=alice_uid, message="one")
    second = services.post_status(uid=alice_uid, message="two")
    services.like_status(uid=bob_uid, status_id=second)
    services.like_status(uid=bob_uid, status_id=first)
    assert status_ids(Client().get("/@bob/likes")) == [first, second]
    assert Client().get("/@bob/likes?before=abc").status_code == 400
    assert Client().get("/@nobody/likes").status_code == 404


def test_the_header_counts_unread_notifications_and_the_page_lists_them():
    alice, alice_uid = logged_in("alice", "Alice")
    bob, bob_uid = logged_in("bob", "Bob")
    post = services.post_status(uid=alice_uid, message="hi @bob")
    services.follow_user(uid=bob_uid, other_uid=alice_uid)
    assert re.search(r'id="notifications-link"[^>]*>Notifications <span class="badge" id="unread-count">1</span>',
                     bob.get("/").content.decode())  # fmt: skip
    page = bob.get("/notifications").content.decode()
    assert "Alice</a>" in page and "mentioned you" in page and f'href="/@alice/{post}"' in page
    assert selectors.get_unread_count(uid=bob_uid) == 1  # reading the page (GET) writes nothing ...
    assert bob.post("/notifications/read", **HTMX).status_code == 200  # ... the page then marks them read
    assert selectors.get_unread_count(uid=bob_uid) == 0
    html = bob.get("/").content.decode()
    assert re.search(r'id="notifications-link"[^>]*>Notifications</a>', html)
    assert "followed you" in alice.get("/notifications").content.decode()
    assert Client().get("/notifications").status_code == 302


def test_private_helpers_give_clear_errors():
    with pytest.raises(exceptions.StatusNotFound):
        selectors.get_thread(status_id=1)

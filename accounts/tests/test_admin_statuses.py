"""Statuses in the admin, read from Redis: newest first with their counts, paged by cursor, searched by id,
@login and words, filtered by the author's state, each linking to its page; Remove post needs a reason,
deletes the post and tells its author."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts import moderation
from accounts.models import User
from media import services as media_services
from media.tests import images
from timelines import selectors, services
from timelines.selectors import moderated_statuses

pytestmark = pytest.mark.django_db

LIST = "/admin/moderation/statuses/"


def listed_ids(client: Client, query: str = "") -> list[int]:
    page = client.get(f"{LIST}{query}").content.decode()
    return [int(found) for found in re.findall(r'data-status-id="(\d+)"', page)]


def test_newest_first_with_counts_and_a_link_to_each_post(moderator_client: Client, alice: User, bob: User):
    first = services.post_status(uid=alice.uid, message="first post")
    second = services.post_status(uid=bob.uid, message="second post")
    services.like_status(uid=bob.uid, status_id=first)
    assert listed_ids(moderator_client) == [second, first]
    page = moderator_client.get(LIST).content.decode()
    assert f'href="/@alice/{first}"' in page and "first post" in page
    row = page[page.index(f'data-status-id="{first}"') :]
    row = row[: row.index("</tr>")]
    assert re.findall(r"<td>(\d+)</td>", row) == ["0", "0", "1"]  # replies, reposts, likes


def test_pages_by_cursor_search_and_state_filter(
    moderator_client: Client, mod: User, alice: User, bob: User, monkeypatch
):
    monkeypatch.setattr("accounts.admin.statuses.PAGE_SIZE", 2)
    ids = [services.post_status(uid=alice.uid, message=f"marker{n} tea") for n in range(3)]
    bobs = services.post_status(uid=bob.uid, message="coffee time")
    assert listed_ids(moderator_client) == [bobs, ids[2]]
    assert listed_ids(moderator_client, f"?max_id={ids[2]}") == [ids[1], ids[0]]
    assert f"max_id={ids[2]}" in moderator_client.get(LIST).content.decode()  # the Older posts link

    assert listed_ids(moderator_client, f"?q={ids[1]}") == [ids[1]]
    assert listed_ids(moderator_client, "?q=%40bob") == [bobs]
    assert listed_ids(moderator_client, "?q=marker1") == [ids[1]]
    assert listed_ids(moderator_client, "?q=tea") == [ids[2], ids[1]]

    moderation.suspend(moderator=mod, user=bob, reason="spam")
    assert listed_ids(moderator_client, "?state=suspended") == [bobs]
    assert listed_ids(moderator_client, "?state=active") == [ids[2], ids[1]]
    assert moderated_statuses.get_status_list(author_state="limited").statuses == ()


def test_remove_post_needs_a_reason_then_removes_it_and_tells_the_author(moderator_client: Client, alice: User):
    post = services.post_status(uid=alice.uid, message="something awful")
    form = f"/admin/moderation/statuses/{post}/remove/"
    assert "something awful" in moderator_client.get(form).content.decode()
    refused = moderator_client.post(form, {"reason": " "})
    assert refused.status_code == 400 and selectors.status_exists(status_id=post)

    done = moderator_client.post(form, {"reason": "Hate speech", "next": f"{LIST}?q=awful"}, follow=True)
    assert done.redirect_chain[-1][0] == f"{LIST}?q=awful"
    assert f"Removed post #{post} by @alice." in done.content.decode()
    assert not selectors.status_exists(status_id=post)
    assert [item.text for item in selectors.get_notifications(uid=alice.uid)] == ["Hate speech"]
    assert moderator_client.get(form).status_code == 404
    assert moderator_client.post(form, {"reason": "again"}).status_code == 404


def test_a_malformed_query_string_is_answered_400_with_the_newest_posts(moderator_client: Client, alice: User):
    post = services.post_status(uid=alice.uid, message="still listed")
    for query in ("?max_id=abc", "?max_id=-3", "?state=banned", "?q=" + "x" * 300):
        response = moderator_client.get(LIST + query)
        assert response.status_code == 400 and b"errornote" in response.content
        assert f'data-status-id="{post}"'.encode() in response.content
    assert listed_ids(moderator_client, "?q=%40nobody") == [] and listed_ids(moderator_client, "?q=the") == []


def test_a_query_or_cursor_that_is_no_plain_number_is_never_a_500(moderator_client: Client, alice: User):
    """``'²'.isdigit()`` is true but ``int('²')`` raises: ``?q=²`` was a 500. Numbers are read by the shared parser
    (``timelines.validation.parse_int``): ASCII digits only, 16 at most."""
    moderator_client.raise_request_exception = False
    post = services.post_status(uid=alice.uid, message="still listed")
    for query in ("²", "٣", "9" * 5000, "9" * 20):
        response = moderator_client.get(LIST, {"q": query})
        assert response.status_code in (200, 400), (query, response.status_code)
        if response.status_code == 200:  # a search that finds nothing (a 400 lists the newest posts)
            assert f'data-status-id="{post}"'.encode() not in response.content, query
    assert listed_ids(moderator_client, f"?q={post}") == [post]
    for cursor in ("²", "٣", "1\n", "9" * 20, " 5"):
        response = moderator_client.get(LIST, {"max_id": cursor})
        assert response.status_code == 400 and b"errornote" in response.content, cursor


def test_moderators_see_a_private_posts_images_that_others_may_not(
    moderator_client: Client, alice: User, bob: User, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    picture = media_services.upload(owner=alice.uid, data=images.jpeg(), description="A private picture")
    services.post_status(uid=alice.uid, message="followers only", visibility="private", media_ids=[picture.pk])
    page = moderator_client.get(LIST).content.decode()
    assert f'src="/media/{picture.token}/preview" alt="A private picture"' in page
    assert moderator_client.get(f"/media/{picture.token}/preview").status_code == 200
    stranger = Client()
    stranger.force_login(bob)
    assert stranger.get(f"/media/{picture.token}/preview").status_code == 404

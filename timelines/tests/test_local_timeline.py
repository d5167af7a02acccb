"""The local timeline (the client API's public timeline): every public post of the site, newest first, paged by
cursor; never an unlisted or private post, a repost, a deleted post or a suspended author's."""

from __future__ import annotations

import pytest

from timelines import selectors, services
from timelines.services import moderation

pytestmark = pytest.mark.django_db


def local_ids(viewer: int | None = None, **paging: int) -> list[int]:
    return [entry.status.id for entry in selectors.get_local_timeline(viewer_uid=viewer, **paging)]


def test_public_posts_show_newest_first_and_page_without_repeats():
    ada = services.create_user(login="ada", name="Ada")
    bob = services.create_user(login="bob", name="Bob")
    posts = [services.post_status(uid=uid, message=f"post {n}") for n, uid in enumerate((ada, bob, ada))]
    assert local_ids() == list(reversed(posts))
    first = local_ids(count=2)
    assert first == [posts[2], posts[1]]
    assert local_ids(count=2, max_id=first[-1]) == [posts[0]]


def test_unlisted_and_private_posts_reposts_and_deleted_posts_stay_out():
    ada = services.create_user(login="ada", name="Ada")
    carol = services.create_user(login="carol", name="Carol")
    public = services.post_status(uid=ada, message="public")
    services.post_status(uid=ada, message="for followers", visibility="private")
    services.post_status(uid=ada, message="unlisted", visibility="unlisted")
    services.set_private(uid=carol, private=True)
    services.post_status(uid=carol, message="private account")
    services.repost_status(uid=carol, status_id=public)
    gone = services.post_status(uid=ada, message="deleted soon")
    services.delete_status(uid=ada, status_id=gone)
    assert local_ids() == [public]
    assert local_ids(viewer=carol) == [public]


def test_a_suspended_authors_posts_leave_it():
    ada = services.create_user(login="ada", name="Ada")
    bob = services.create_user(login="bob", name="Bob")
    kept = services.post_status(uid=bob, message="bob")
    services.post_status(uid=ada, message="ada")
    moderation.suspend_user(uid=ada)
    assert local_ids() == [kept]

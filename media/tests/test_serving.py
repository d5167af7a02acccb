"""Serving pictures: an upload nobody has posted is its owner's alone; files carry nosniff and their own type."""

from __future__ import annotations

import pytest
from django.test import Client

from media import services
from media.tests import images
from timelines import services as timelines
from timelines.services import moderation

pytestmark = pytest.mark.django_db


def _client(login: str) -> tuple[Client, int]:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(username=login, password="pw-" + login * 3)
    client = Client()
    client.force_login(user)
    return client, user.uid


def test_an_unposted_upload_is_seen_by_its_owner_only() -> None:
    alice, alice_uid = _client("alice")
    bob, _ = _client("bob")
    picture = services.upload(owner=alice_uid, data=images.jpeg(), description="a red flag")
    url = f"/media/{picture.token}/preview"
    response = alice.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/jpeg"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert b"SpyCam" not in b"".join(response.streaming_content)
    assert bob.get(url).status_code == 404
    assert Client().get(url).status_code == 404
    assert alice.get(f"/media/{picture.token}/thumbnail").status_code == 404  # only the two variants exist


def test_a_private_posts_images_are_served_to_its_audience_only_and_stop_when_it_is_deleted():
    alice, alice_uid = _client("alice")
    bob, bob_uid = _client("bob")
    carol, _ = _client("carol")
    timelines.follow_user(uid=bob_uid, other_uid=alice_uid)
    picture = services.upload(owner=alice_uid, data=images.jpeg(), description="for followers")
    status_id = timelines.post_status(
        uid=alice_uid, message="followers only", visibility="private", media_ids=[picture.pk]
    )
    for variant in ("original", "preview"):
        url = f"/media/{picture.token}/{variant}"
        assert alice.get(url).status_code == 200
        response = bob.get(url)
        assert response.status_code == 200 and response["Cache-Control"].startswith("private")
        assert carol.get(url).status_code == 404
        assert Client().get(url).status_code == 404
    assert "for followers" not in carol.get("/@alice").content.decode()
    timelines.delete_status(uid=alice_uid, status_id=status_id)
    assert bob.get(f"/media/{picture.token}/original").status_code == 404


def test_the_images_of_a_suspended_author_or_a_removed_post_stop_loading_at_once():
    _, alice_uid = _client("alice")
    bob, _ = _client("bob")
    pictures = [services.upload(owner=alice_uid, data=images.jpeg()) for _ in range(2)]
    timelines.post_status(uid=alice_uid, message="kept", media_ids=[pictures[0].pk])
    removed = timelines.post_status(uid=alice_uid, message="removed", media_ids=[pictures[1].pk])
    urls = [f"/media/{picture.token}/preview" for picture in pictures]
    assert [bob.get(url).status_code for url in urls] == [200, 200]
    moderation.remove_status(status_id=removed, reason="spam")
    assert bob.get(urls[1]).status_code == 404
    moderation.suspend_user(uid=alice_uid)
    assert bob.get(urls[0]).status_code == 404
    moderation.unsuspend_user(uid=alice_uid)
    assert bob.get(urls[0]).status_code == 200


def test_with_accel_redirect_the_proxy_sends_the_file_after_the_check(settings):
    settings.SOCIALSITE_MEDIA_ACCEL_REDIRECT = "/protected-media/"
    alice, alice_uid = _client("alice")
    picture = services.upload(owner=alice_uid, data=images.jpeg())
    response = alice.get(f"/media/{picture.token}/original")
    assert response.status_code == 200 and response.content == b""
    assert response["X-Accel-Redirect"] == f"/protected-media/{picture.original}"
    assert response["Content-Type"] == "image/jpeg" and response["X-Content-Type-Options"] == "nosniff"
    assert "X-Accel-Redirect" not in Client().get(f"/media/{picture.token}/original")  # a 404 names nothing


def test_a_direct_messages_images_load_for_its_participants_only_even_with_the_url():
    """A direct post's image URL is not a capability: a follower, a stranger or a logged-out visitor who has the
    URL gets 404; the sender and the people the message reaches get the file, as long as they may see it."""
    alice, alice_uid = _client("alice")
    bob, _ = _client("bob")
    carol, carol_uid = _client("carol")
    timelines.follow_user(uid=carol_uid, other_uid=alice_uid)  # a follower is not a participant
    picture = services.upload(owner=alice_uid, data=images.jpeg(), description="just for bob")
    status_id = timelines.post_status(uid=alice_uid, message="@bob look", visibility="direct", media_ids=[picture.pk])
    for variant in ("original", "preview"):
        url = f"/media/{picture.token}/{variant}"
        assert alice.get(url).status_code == 200
        response = bob.get(url)
        assert response.status_code == 200 and response["Cache-Control"].startswith("private")
        assert carol.get(url).status_code == 404
        assert Client().get(url).status_code == 404
    timelines.delete_status(uid=alice_uid, status_id=status_id)
    assert bob.get(f"/media/{picture.token}/preview").status_code == 404

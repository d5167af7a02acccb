"""Serving pictures: an upload nobody has posted is its owner's alone; files carry nosniff and their own type."""

from __future__ import annotations

import pytest
from django.test import Client

from media import services
from media.tests import images

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

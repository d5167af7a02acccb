"""Avatars and headers (issue 21): set and removed on /settings/profile, shown beside every post through
``/@login/avatar`` (the generated initials for people without one), and a refused picture changes nothing."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from media import defaults
from media.models import Attachment
from media.tests import images
from socialsite.tests.people import logged_in
from timelines import selectors
from timelines import services as timelines

pytestmark = pytest.mark.django_db

FORM = {"name": "Alice Liddell", "bio": "", "default_visibility": "public"}


def files_in(root: Path) -> list[Path]:
    return [path for path in root.rglob("*") if path.is_file()] if root.exists() else []


def body(response) -> bytes:  # type: ignore[no-untyped-def]
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_an_avatar_set_in_the_settings_shows_beside_posts_and_can_be_removed(media_root):
    client, alice = logged_in("alice", "Alice Liddell")
    status_id = timelines.post_status(uid=alice, message="hello")
    default = client.get("/@alice/avatar")
    assert default["Content-Type"] == "image/svg+xml" and b">AL</text>" in default.content
    assert default["X-Content-Type-Options"] == "nosniff"

    picture = SimpleUploadedFile("me.jpg", images.jpeg((600, 300)))
    header = SimpleUploadedFile("wide.png", images.png((900, 300)))
    response = client.post("/settings/profile", {**FORM, "avatar": picture, "header": header})
    assert response.status_code == 302, response.content.decode()[:2000]
    me = selectors.get_user(uid=alice)
    assert me.avatar and me.header
    served = client.get("/@alice/avatar")
    assert served["Content-Type"] == "image/jpeg"
    assert Image.open(io.BytesIO(body(served))).size == (300, 300)  # square, cropped around the centre
    assert client.get("/@alice/avatar", headers={"If-None-Match": served["ETag"]}).status_code == 304
    assert served["ETag"] != default["ETag"]
    page = client.get(f"/@alice/{status_id}").content.decode()
    assert 'src="/@alice/avatar"' in page
    assert f'src="/media/{me.header}/original"' in client.get("/@alice").content.decode()
    assert len(files_in(media_root)) == 2

    response = client.post("/settings/profile", {**FORM, "remove_avatar": "on"})
    assert response.status_code == 302
    assert selectors.get_user(uid=alice).avatar == ""
    assert client.get("/@alice/avatar")["Content-Type"] == "image/svg+xml"
    assert not Attachment.objects.filter(kind=Attachment.AVATAR).exists()
    assert len(files_in(media_root)) == 1  # the header stays


def test_a_refused_avatar_is_a_form_error_and_changes_nothing(media_root):
    client, alice = logged_in("alice", "Alice Liddell")
    fake = SimpleUploadedFile("me.jpg", b"<html><body>not a picture</body></html>")
    response = client.post("/settings/profile", {**FORM, "name": "Someone Else", "avatar": fake})
    assert response.status_code == 400
    assert "This file is not a plain image" in response.content.decode()
    me = selectors.get_user(uid=alice)
    assert (me.avatar, me.name) == ("", "Alice Liddell")
    assert files_in(media_root) == [] and Attachment.objects.count() == 0


def test_the_generated_avatar_is_the_initials_of_the_name_or_login():
    assert defaults.initials("Ada Lovelace", "ada") == "AL"
    assert defaults.initials("<script>alert(1)</script>", "zed") == "Z"  # only letters and digits are drawn
    assert b"<script" not in defaults.avatar_svg(name="<script>", login="zed")

"""Focal points (issue 21): an avatar is the square of the picture around the part its owner chose to keep, a
header the 3:1 band around it; a post's previews, cropped by the grid, keep their focal point in view."""

from __future__ import annotations

import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from media import services
from media.tests import images
from socialsite.tests.people import logged_in
from timelines import services as timelines

pytestmark = pytest.mark.django_db

FORM = {"name": "Alice", "bio": "", "default_visibility": "public"}
BLUE, RED = (20, 20, 220), (200, 30, 30)  # images.jpeg: left half blue, right half red


def avatar_colour(client) -> tuple[int, int, int]:  # type: ignore[no-untyped-def]
    served = client.get("/@alice/avatar")
    data = b"".join(served.streaming_content) if served.streaming else served.content
    picture = Image.open(io.BytesIO(data)).convert("RGB")
    assert picture.size == (300, 300)
    return picture.getpixel((150, 150))  # type: ignore[return-value]


def near(colour: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) < 40 for a, b in zip(colour, wanted, strict=True))


@pytest.mark.parametrize(("focus", "colour"), [("-1,0", BLUE), ("1,0", RED)])
def test_an_avatar_is_cropped_square_around_the_part_chosen_to_keep(focus, colour):
    client, _ = logged_in("alice")
    picture = SimpleUploadedFile("wide.jpg", images.jpeg((600, 300)))
    response = client.post("/settings/profile", {**FORM, "avatar": picture, "avatar_focus": focus})
    assert response.status_code == 302
    assert near(avatar_colour(client), colour)


def test_the_profile_settings_offer_the_focal_point_as_a_menu_in_words():
    client, _ = logged_in("alice")
    html = client.get("/settings/profile").content.decode()
    assert "Avatar: part to keep" in html and ">The left side</option>" in html


def test_a_preview_keeps_its_focal_point_in_the_grid_crop():
    client, alice = logged_in("alice")
    low_right = services.upload(owner=alice, data=images.jpeg((800, 400)), description="Low right", focus="0.8,-0.6")
    centred = services.upload(owner=alice, data=images.jpeg((800, 400)), description="Centred")
    timelines.post_status(uid=alice, message="two", media_ids=[low_right.pk, centred.pk])
    html = client.get("/").content.decode()
    classes = dict(re.findall(r'<img src="[^"]+/preview" alt="([^"]*)"[^>]*?(?: class="([^"]*)")?>', html))
    assert classes == {"Low right": "fx-9 fy-8", "Centred": ""}

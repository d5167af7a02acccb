"""Processing uploads with Pillow: EXIF gone, orientation applied, sizes capped, bombs and fakes refused."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from media import limits, processing
from media.tests import images


def _open(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_exif_is_stripped_and_orientation_applied() -> None:
    # Orientation 6: the camera was turned; the picture is shown rotated 90° clockwise, so 60x40 becomes 40x60.
    result = processing.process(images.jpeg((60, 40), orientation=6, gps=True))
    out = _open(result.original.data)
    assert out.format == "JPEG" and result.content_type == "image/jpeg"
    assert out.size == (40, 60)
    assert not out.getexif() and "exif" not in out.info
    assert b"SpyCam" not in result.original.data and b"SpyCam" not in result.preview.data
    # The blue left half is now at the top.
    assert out.convert("RGB").getpixel((20, 5))[2] > 150
    assert out.convert("RGB").getpixel((20, 55))[0] > 150


def test_sizes_are_capped_and_a_blurhash_made() -> None:
    result = processing.process(images.png((3000, 1500)))
    assert (result.original.width, result.original.height) == (limits.ORIGINAL_SIZE, limits.ORIGINAL_SIZE // 2)
    assert (result.preview.width, result.preview.height) == (limits.PREVIEW_SIZE, limits.PREVIEW_SIZE // 2)
    assert 6 <= len(result.blurhash) <= 40


def test_transparency_is_kept_as_webp_and_gifs_become_stills() -> None:
    result = processing.process(images.png(alpha=True))
    assert result.content_type == "image/webp" and _open(result.original.data).mode == "RGBA"
    still = _open(processing.process(images.gif()).original.data)
    assert getattr(still, "n_frames", 1) == 1


def test_avatar_is_square() -> None:
    result = processing.process(images.jpeg((300, 120)), kind="avatar")
    assert result.original.width == result.original.height == 120


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"<html><body>hello</body></html>", "not a plain image"),
        (b"GIF89a<?php system($_GET['c']); ?>", "not a plain image"),
        (images.jpeg() + b"<?php system($_GET['c']); ?>", "not a plain image"),
        (b"%PDF-1.4 not an image at all", "not a JPEG, PNG, GIF or WebP"),
        (images.jpeg((400, 400))[:300], "damaged or incomplete"),
        (b'<svg xmlns="http://www.w3.org/2000/svg"></svg>', "not a plain image"),
    ],
    ids=["empty", "html-named-jpg", "php-gif-polyglot", "jpeg-with-php", "pdf", "truncated", "svg"],
)
def test_fakes_are_refused(data: bytes, message: str) -> None:
    with pytest.raises(processing.InvalidImage, match=message):
        processing.process(data)


def test_decompression_bomb_is_refused() -> None:
    bomb = images.png((10_000, 10_000))  # one colour: a few kB on the wire, 300 MB decoded
    assert len(bomb) < 1_000_000
    with pytest.raises(processing.InvalidImage, match="too many pixels"):
        processing.process(bomb)


def test_too_large_upload_is_refused(settings) -> None:  # type: ignore[no-untyped-def]
    settings.SOCIALSITE_MEDIA_MAX_BYTES = 100
    with pytest.raises(processing.InvalidImage, match="at most"):
        processing.process(images.jpeg())


def test_a_camera_sized_jpeg_is_decoded_at_a_smaller_scale_with_the_same_result() -> None:
    # 4000 x 3000, turned by EXIF: decoded at half scale (2000 x 1500), still capped at 1920 px and upright.
    result = processing.process(images.jpeg((4000, 3000), orientation=6))
    assert (result.original.width, result.original.height) == (1440, 1920)
    out = _open(result.original.data).convert("RGB")
    assert out.getpixel((720, 100))[2] > 150 and out.getpixel((720, 1800))[0] > 150  # blue on top, as before

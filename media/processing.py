"""Turning uploaded bytes into files safe to serve (issue 21, "never serving what was uploaded as it came").

Every upload is decoded by Pillow from an allow-list of formats (JPEG, PNG, GIF, WebP), with a pixel limit checked
before any pixel is decoded, then drawn again into new files: its EXIF orientation applied, then every metadata
block (EXIF with location and camera, XMP, ICC, comments) left behind, the size capped. An animated GIF (or WebP)
becomes a still of its first frame: a re-encoded animation would need a video pipeline (Mastodon turns GIFs into
MP4) to stay within the page weight, and a still is the safe subset. The result is JPEG, or WebP when the picture
has transparency. Bytes that are not one of these images, or that carry markup or PHP besides the picture (a
polyglot), are refused with ``InvalidImage``.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass

import blurhash
from PIL import Image, ImageOps, UnidentifiedImageError

from media import limits

FORMATS = ("JPEG", "PNG", "GIF", "WEBP")
# Markup or code in the raw bytes: such a file could be run or rendered as something else if it were ever served
# as it came (it never is, but a file that carries it was made to be misused and is refused).
_ACTIVE = re.compile(rb"<\?php|<script|<html|<svg|<!doctype|<body|<iframe", re.IGNORECASE)

Image.MAX_IMAGE_PIXELS = limits.MAX_PIXELS  # Pillow's own guard, for any decode outside this module too


class InvalidImage(Exception):
    """An upload refused, with a message for the person who sent it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Rendition:
    data: bytes
    width: int
    height: int


@dataclass(frozen=True)
class Processed:
    original: Rendition
    preview: Rendition
    content_type: str
    extension: str
    blurhash: str


def check(data: bytes) -> tuple[int, int]:
    """The (width, height) of ``data`` after the checks that need no pixel decoded: not empty, within the size
    limit, no markup or code, one of the allowed formats, within the pixel limit, structurally sound. Cheap (a few
    milliseconds for any size), so an upload is refused or accepted at once even when its processing waits for a
    job. Raises ``InvalidImage``."""
    if not data:
        raise InvalidImage("The file is empty.")
    if len(data) > limits.max_upload_bytes():
        raise InvalidImage(limits.too_large_message())
    if _ACTIVE.search(data):
        raise InvalidImage("This file is not a plain image (it carries markup or code).")
    try:
        with Image.open(io.BytesIO(data), formats=FORMATS) as probe:
            width, height = probe.size
            if width * height > limits.MAX_PIXELS:
                raise InvalidImage("This image has too many pixels.")
            probe.verify()  # structure and checksums, without decoding the pixels
    except InvalidImage:
        raise
    except Image.DecompressionBombError:
        raise InvalidImage("This image has too many pixels.") from None
    except UnidentifiedImageError:
        raise InvalidImage("This file is not a JPEG, PNG, GIF or WebP image.") from None
    except (OSError, SyntaxError, ValueError):
        raise InvalidImage("This image is damaged or incomplete.") from None
    return width, height


def _decode(data: bytes) -> Image.Image:
    width, height = check(data)
    try:
        image = Image.open(io.BytesIO(data), formats=FORMATS)
        if image.format == "JPEG" and max(width, height) > limits.ORIGINAL_SIZE:
            # Decode a camera-sized JPEG at the smallest DCT scale (1/2, 1/4, 1/8) still at least as large as the
            # capped original: a 12 MP photo decodes at a quarter of its pixels, for the same 1920 px result.
            factor = limits.ORIGINAL_SIZE / max(width, height)
            image.draft("RGB", (math.ceil(width * factor), math.ceil(height * factor)))
        image.load()  # a truncated file fails here, not later while re-encoding
    except Image.DecompressionBombError:
        raise InvalidImage("This image has too many pixels.") from None
    except (OSError, SyntaxError, ValueError):
        raise InvalidImage("This image is damaged or incomplete.") from None
    return image


def _flatten(image: Image.Image) -> Image.Image:
    """A new image of the first frame, oriented, in RGB or RGBA, with none of the upload's metadata."""
    image.seek(0)  # an animated GIF or WebP becomes a still of its first frame
    oriented = ImageOps.exif_transpose(image) or image
    has_alpha = oriented.mode in ("RGBA", "LA", "PA") or "transparency" in oriented.info
    clean = oriented.convert("RGBA" if has_alpha else "RGB")
    clean.info = {}  # nothing of the upload's metadata reaches an encoder
    return clean


def _fit(image: Image.Image, box: tuple[int, int]) -> Image.Image:
    """A copy of ``image`` within ``box`` (never enlarged)."""
    copy = image.copy()
    copy.thumbnail(box, Image.Resampling.LANCZOS)
    copy.info = {}
    return copy


def _encode(image: Image.Image, fmt: str) -> Rendition:
    out = io.BytesIO()
    if fmt == "JPEG":
        image.save(out, "JPEG", quality=85, progressive=True)
    else:
        image.save(out, "WEBP", quality=85, method=4)
    return Rendition(data=out.getvalue(), width=image.width, height=image.height)


def _blurhash(image: Image.Image) -> str:
    small = image.convert("RGB")
    small.thumbnail((32, 32))
    pixels = list(small.get_flattened_data() if hasattr(small, "get_flattened_data") else small.getdata())
    rows = [pixels[y * small.width : (y + 1) * small.width] for y in range(small.height)]
    return str(blurhash.encode(rows, components_x=4, components_y=3))


def centering(focus: tuple[float, float]) -> tuple[float, float]:
    """Mastodon's focal point (x, y from -1 to 1, y up) as Pillow's ``centering`` (0 to 1 from the top left)."""
    x, y = focus
    return (min(1.0, max(0.0, (x + 1) / 2)), min(1.0, max(0.0, (1 - y) / 2)))


def _crop(image: Image.Image, size: tuple[int, int], focus: tuple[float, float]) -> Image.Image:
    # The part cut away is taken from the sides away from the focal point, so the point stays in the picture.
    return ImageOps.fit(image, size, Image.Resampling.LANCZOS, centering=centering(focus))


def process(data: bytes, *, kind: str = "image", focus: tuple[float, float] = (0.0, 0.0)) -> Processed:
    """The files to store for uploaded ``data``: for a post's image an original of at most 1920x1920 and a preview
    of at most 640x640 (never cropped: pages crop with ``object-position`` at its focal point); for an avatar a
    square and for a header a 3:1 band, each cropped around ``focus`` (Mastodon's focal point; the centre by
    default). Raises ``InvalidImage``."""
    with _decode(data) as decoded:
        image = _flatten(decoded)
    fmt = "WEBP" if image.mode == "RGBA" else "JPEG"
    if kind == "avatar":
        image = _crop(image, (min(image.width, image.height, limits.AVATAR_SIZE),) * 2, focus)
        small = _fit(image, (limits.AVATAR_SIZE, limits.AVATAR_SIZE))
        original = preview = _encode(small, fmt)
    elif kind == "header":
        width = min(image.width, limits.HEADER_SIZE[0])
        image = _crop(image, (width, max(1, width // 3)), focus)
        small = _fit(image, limits.HEADER_SIZE)
        original = preview = _encode(small, fmt)
    else:
        large = _fit(image, (limits.ORIGINAL_SIZE, limits.ORIGINAL_SIZE))
        # The preview and the blurhash are drawn from the capped original, not the upload: a fraction of the
        # pixels to resample for a camera-sized picture, the same result at 640 px.
        small = _fit(large, (limits.PREVIEW_SIZE, limits.PREVIEW_SIZE))
        original, preview = _encode(large, fmt), _encode(small, fmt)
    return Processed(
        original=original,
        preview=preview,
        content_type="image/jpeg" if fmt == "JPEG" else "image/webp",
        extension="jpg" if fmt == "JPEG" else "webp",
        blurhash=_blurhash(small),
    )

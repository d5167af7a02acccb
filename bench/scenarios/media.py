"""Scenario 10: pictures (issue 21).

Uploads: ``media.services.upload`` of a 2 MB camera-sized JPEG (decoded, turned upright, stripped, re-encoded as a
1920 px original and a 640 px preview, blurhash, two files stored), per second, one process; the raw column
stores the same bytes twice as they came (what the storage alone costs, and what never serving an upload as it
came adds to it). Home with images: ``selectors.get_status_messages`` of a home of 30 posts with 4 images each;
the raw column is the same home of 30 text posts, so the ratio is what the images cost a page read, and the
round trips must be the same (the images come with the status hash each process reads once).
"""

from __future__ import annotations

import io
import random

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image

from bench.graph import bulk_follow, bulk_users
from bench.harness import Context, RoundTrips, Row, compare_many
from media import services as media_services
from timelines import selectors, services

PAGE = 30
IMAGES = 4


def camera_jpeg(size: tuple[int, int], seed: int) -> bytes:
    """A photo-like JPEG: smooth bands with noise, which compresses like a phone picture (about 2 MB at 2400 x
    1800, quality 92)."""
    rng = random.Random(seed)
    width, height = size
    noise = Image.frombytes("L", (width // 4, height // 4), rng.randbytes((width // 4) * (height // 4)))
    base = Image.merge("RGB", [noise.resize(size), noise.rotate(90, expand=True).resize(size), noise.resize(size)])
    out = io.BytesIO()
    base.save(out, "JPEG", quality=92)
    return out.getvalue()


def _store_as_it_came(data: bytes, counter: list[int]) -> None:
    counter[0] += 1
    for variant in ("original", "preview"):
        name = default_storage.save(f"raw-{counter[0]}/{variant}.jpg", ContentFile(data))
        default_storage.delete(name)


def _home(ctx: Context, with_images: bool, picture: bytes) -> int:
    reader, author = bulk_users(ctx, 2, prefix="pics" if with_images else "text")
    bulk_follow(ctx, [(reader, author)])
    for i in range(PAGE):
        media_ids = []
        if with_images:
            media_ids = [
                media_services.upload(owner=author, data=picture, description=f"image {i}.{n}").pk
                for n in range(IMAGES)
            ]
        services.post_status(uid=author, message=f"post {i} with a few words in it", media_ids=media_ids)
    shown = selectors.get_status_messages(uid=reader, count=PAGE)
    assert len(shown) == PAGE and all(len(entry.status.media) == (IMAGES if with_images else 0) for entry in shown)
    return reader


def run(ctx: Context, trips: RoundTrips) -> list[Row]:
    size = (240, 180) if ctx.smoke else (2400, 1800)
    photo = camera_jpeg(size, ctx.seed)
    seconds = ctx.scale(6.0, 20.0)
    counter = [0]
    uploaded: list[int] = []

    def upload() -> None:
        uploaded.append(media_services.upload(owner=1, data=photo, description="a photo").pk)

    upload_rate, raw_rate = compare_many([upload, lambda: _store_as_it_came(photo, counter)], seconds, rounds=4)
    media_services.discard(owner=1, media_ids=uploaded)

    small = camera_jpeg((320, 240), ctx.seed)
    with_images = _home(ctx, True, small)
    text_only = _home(ctx, False, small)
    read_images = lambda: selectors.get_status_messages(uid=with_images, count=PAGE)  # noqa: E731
    read_text = lambda: selectors.get_status_messages(uid=text_only, count=PAGE)  # noqa: E731
    images_trips, text_trips = trips.measure(read_images), trips.measure(read_text)
    images_rate, text_rate = compare_many([read_images, read_text], ctx.scale(3.0, 10.0))
    megabytes = len(photo) / 1e6
    return [
        Row(
            "10 media",
            f"uploads/s, a {megabytes:.1f} MB JPEG",
            upload_rate,
            raw_rate,
            "uploads/s",
            note="raw column = storing the upload as it came, no processing",
        ),
        Row(
            "10 media",
            "home read round trips, 30 posts x 4 images",
            images_trips,
            text_trips,
            "",
            higher_is_better=False,
            bar="= the same home without images",
            passed=images_trips == text_trips,
            note="raw column = 30 text posts",
        ),
        Row(
            "10 media",
            "home reads/s, 30 posts x 4 images",
            images_rate,
            text_rate,
            "reads/s",
            note="raw column = 30 text posts",
        ),
    ]

"""The limits of pictures: Mastodon's where it has one (4 per post, 1,500 characters of alt text, 1920x1920)."""

from __future__ import annotations

from django.conf import settings

MAX_PER_POST = 4
MAX_DESCRIPTION_LENGTH = 1500
ORIGINAL_SIZE = 1920  # the longest side of the re-encoded original
PREVIEW_SIZE = 640  # the longest side of the preview shown in timelines
AVATAR_SIZE = 400  # avatars are square
HEADER_SIZE = (1500, 500)
# Decoding more pixels than this is refused before any is decoded (a 10,000 x 10,000 PNG of one colour is a few
# kilobytes on the wire and 300 MB in memory).
MAX_PIXELS = 40_000_000
# Uploads that were never attached to a post are deleted after this many seconds by the clean-up job.
ORPHAN_AGE = 24 * 3600
ORPHAN_BATCH = 1000  # deleted per clean-up job


def max_upload_bytes() -> int:
    return int(getattr(settings, "SOCIALSITE_MEDIA_MAX_BYTES", 10 * 1024 * 1024))


def sync_max_pixels() -> int:
    """The largest post image (in pixels) processed in the request; a larger one is processed by a job (the
    upload answers at once). 1 MP took 0.1 to 0.15 s to process on the shared 2-core machine, 2 to 3 MP 0.25 to
    0.7 s."""
    return int(getattr(settings, "SOCIALSITE_MEDIA_SYNC_MAX_PIXELS", 1_000_000))


# Another server's picture that could not be fetched for a reason that may pass (no connection, a time-out, a 5xx
# or 429) is tried again after 1 minute, 10 minutes and 1 hour; a 4xx, a picture too large or not an image is not.
REMOTE_RETRY_SECONDS = (60, 600, 3600)


def remote_retry_seconds() -> list[int]:
    """The waits before each new try of a remote picture (``SOCIALSITE_REMOTE_MEDIA_RETRY_SECONDS``): one retry
    per number, none when empty."""
    found = getattr(settings, "SOCIALSITE_REMOTE_MEDIA_RETRY_SECONDS", REMOTE_RETRY_SECONDS)
    return [max(0, int(seconds)) for seconds in found]


def too_large_message() -> str:
    """What a refused upload is told: the limit in MB (or kB below one MB)."""
    limit = max_upload_bytes()
    size = f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{max(1, limit // 1024)} kB"
    return f"Images may be at most {size}."

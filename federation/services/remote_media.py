"""Other servers' pictures, cached here (issue 22): the images of their posts (a Note's ``attachment``) and, for
``federation.services.remote_profiles``, their accounts' avatars and headers.

The site's Content-Security-Policy loads pictures from itself only (``img-src 'self'``), so, as Mastodon caches
remote media, each picture is fetched by a job through ``federation.client`` (its SSRF checks, redirects checked,
at most the upload limit in bytes, ``FETCH_SECONDS``), must be answered as ``image/*``, and is re-processed by the
same code as an upload (``media.processing``: the allowed formats, metadata dropped, sizes capped) into files of
this site's, served under ``/media/<token>/...`` like local ones, with the post's policy.

A post's images: each ``Document`` or ``Image`` whose ``mediaType`` is an image (videos, audio and anything else
are left out), at most ``MAX_ITEMS``, gets a record when the post is stored (``reserve``: its token, alt text,
blurhash, focal point and expected sizes go into the status hash once), and ``cache_images`` (a job) fills it.
Until then, or when it cannot be fetched, its URL answers a stand-in picture. A fetch that failed for a reason that
may pass (``client.FetchError.transient``: no connection, a time-out, a 5xx) leaves the image waiting and makes the
job raise ``TryAgain`` once the others are done, so RQ runs it again later (``federation.queue``); the last try
marks it failed. A 4xx, a picture too large or not an image fails at once. Nothing is taken from a server
whose domain block rejects its media, and a block that starts rejecting them deletes what was cached
(``remote_profiles.apply_media_policy``), and lifting it brings them back.
"""

from __future__ import annotations

import logging
from typing import Any

from federation import client
from federation.models import RemoteActor
from federation.services import domain_blocks
from media import deferred, limits
from timelines.records import MediaItem

logger = logging.getLogger(__name__)

MAX_ITEMS = 4
MAX_DESCRIPTION = 1500
MAX_URL = 2048
FETCH_SECONDS = 30.0
IMAGE_ACCEPT = "image/webp, image/png, image/jpeg, image/gif;q=0.9"
REJECTED = "Its server's media are rejected here."
NOT_FETCHED = "The image could not be fetched from its server."


class TryAgain(Exception):
    """Some pictures could not be fetched for a reason that may pass: the job is to be run again later."""


def picture_url(value: Any) -> str | None:
    """An attachment's (or an actor's ``icon``/``image``'s) address: a string, an ``Image``/``Link``'s ``url`` or
    ``href``, or the first of a list; http(s) only."""
    if isinstance(value, list):
        value = next((item for item in value if isinstance(item, str | dict)), None)
    if isinstance(value, dict):
        value = value.get("url") if value.get("url") is not None else value.get("href")
        if isinstance(value, list | dict):
            return picture_url(value)
    if not isinstance(value, str) or len(value) > MAX_URL:
        return None
    schemes = ("https://", "http://") if client.insecure() else ("https://",)
    return value if value.startswith(schemes) else None


def _size(value: Any) -> int:
    return value if isinstance(value, int) and 0 < value < 100_000 else 0


def _focus(value: Any) -> tuple[float, float]:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(part, int | float) for part in value):
        return max(-1.0, min(1.0, float(value[0]))), max(-1.0, min(1.0, float(value[1])))
    return 0.0, 0.0


def _fit(width: int, height: int, side: int) -> tuple[int, int]:
    """The size of a ``width`` x ``height`` picture within ``side`` x ``side`` (as processing draws it)."""
    if not width or not height:
        return 0, 0
    scale = min(1.0, side / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def images_of(note: dict[str, Any], author: RemoteActor) -> tuple[deferred.RemoteImage, ...]:
    """The images of remote ``note`` by ``author`` to show here (none from a server whose media are rejected)."""
    found = note.get("attachment")
    found = found if isinstance(found, list) else [found] if isinstance(found, dict) else []
    if not found or domain_blocks.rejects_media(author.domain):
        return ()
    images = []
    for document in found:
        if not isinstance(document, dict) or document.get("type") not in ("Document", "Image"):
            continue
        media_type = document.get("mediaType")
        if not isinstance(media_type, str) or not media_type.lower().startswith("image/"):
            continue
        url = picture_url(document.get("url"))
        if url is None:
            continue
        name, blurhash = document.get("name"), document.get("blurhash")
        images.append(
            deferred.RemoteImage(
                url=url,
                description=name.strip()[:MAX_DESCRIPTION] if isinstance(name, str) else "",
                blurhash=blurhash if isinstance(blurhash, str) and len(blurhash) <= 100 else "",
                width=_size(document.get("width")),
                height=_size(document.get("height")),
                focus=_focus(document.get("focalPoint")),
            )
        )
        if len(images) == MAX_ITEMS:
            break
    return tuple(images)


def reserve(images: tuple[deferred.RemoteImage, ...], *, author: RemoteActor, status_id: int) -> tuple[MediaItem, ...]:
    """Records for ``images`` of post ``status_id`` (fetched later by ``cache_images``), as the status hash
    keeps them: the sizes expected once processed (capped as an upload's are)."""
    items = []
    for attachment, image in zip(
        deferred.reserve_remote(owner=author.uid, status_id=status_id, images=images), images, strict=True
    ):
        width, height = _fit(image.width, image.height, limits.ORIGINAL_SIZE)
        preview_width, preview_height = _fit(image.width, image.height, limits.PREVIEW_SIZE)
        items.append(
            MediaItem(
                id=attachment.pk,
                token=attachment.token,
                width=width,
                height=height,
                preview_width=preview_width,
                preview_height=preview_height,
                description=image.description,
                blurhash=image.blurhash,
                focus_x=image.focus[0],
                focus_y=image.focus[1],
                remote_url=image.url,
            )
        )
    return tuple(items)


def download(url: str) -> bytes:
    """The bytes of the picture at ``url``: unsigned (as Mastodon fetches media), within the upload limit and
    ``FETCH_SECONDS``, answered as an image. Raises ``client.FetchError``."""
    response = client.get(url, accept=IMAGE_ACCEPT, max_bytes=limits.max_upload_bytes(), timeout=FETCH_SECONDS)
    if not response.content_type.startswith("image/"):
        raise client.FetchError(f"{url} is not an image ({response.content_type or 'no type'})")
    return response.body


def cache_images(*, status_id: int, last_try: bool = True) -> int:
    """Fetch and process the images of remote post ``status_id`` not cached yet (a job, queued when the post is
    stored). Returns how many are cached now. One that cannot be fetched or is refused by processing is marked
    failed (its URL keeps answering the stand-in), except one whose failure may pass when this is not the
    ``last_try``: it stays waiting and ``TryAgain`` is raised after the others are done. Idempotent."""
    waiting = deferred.remote_waiting(status_id)
    if not waiting:
        return 0
    author = RemoteActor.objects.filter(uid=waiting[0].owner).first()
    cached = 0
    postponed: list[str] = []
    for attachment in waiting:
        if author is None or domain_blocks.rejects_media(author.domain) or domain_blocks.is_suspended(author.domain):
            deferred.finish_remote(attachment, None, REJECTED)
            continue
        try:
            data = download(attachment.remote_url)
        except client.FetchError as error:
            if error.transient and not last_try:
                postponed.append(str(error))
                continue
            logger.info("A remote image was not cached: %s", error)
            deferred.finish_remote(attachment, None, NOT_FETCHED)
            continue
        done = deferred.finish_remote(attachment, data)
        cached += bool(done is not None and done.ready)
    if postponed:
        raise TryAgain("; ".join(postponed))
    return cached

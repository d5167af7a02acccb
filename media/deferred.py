"""Processing a large upload off the request (issue 21): the upload is checked at once (``processing.check``: size,
format, pixel limit, no markup, sound structure, no pixel decoded), stored as it came under a name never served
(``<token>/upload``), and recorded as ``processing``; a job (``timelines.tasks.process_media``) decodes and
re-encodes it later with ``finish``. Until then it has no file to serve, and no post may carry it
(``services.claimable``, Mastodon's 422). Small images stay in the request: ``limits.sync_max_pixels``.

``PendingPost`` keeps a post from the post box that waits for its images; ``timelines.services.deferred_posts``
publishes it. Another server's images (issue 22) go the same way: reserved with the post (``reserve_remote``), then
fetched by a job and processed like an upload (``finish_remote``). This module knows files and records only.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction

from media import processing
from media.models import Attachment, PendingPost


def store_source(*, owner: int, data: bytes, description: str, focus: tuple[float, float]) -> Attachment:
    """Keep checked ``data`` as it came, for a job to process; returns the record, ``processing``, with its
    sizes the upload's own (the job writes the processed ones)."""
    width, height = processing.check(data)
    token = secrets.token_urlsafe(16)
    source = default_storage.save(f"{token}/upload", ContentFile(data))
    try:
        return Attachment.objects.create(
            owner=owner,
            kind=Attachment.IMAGE,
            token=token,
            original="",
            preview="",
            source=source,
            state=Attachment.PROCESSING,
            content_type="",
            width=width,
            height=height,
            preview_width=0,
            preview_height=0,
            description=description,
            focus_x=focus[0],
            focus_y=focus[1],
        )
    except BaseException:
        default_storage.delete(source)
        raise


def finish(media_id: int) -> Attachment | None:
    """Process upload ``media_id`` kept by ``store_source``: its files written, the record ``ready`` (or
    ``failed`` with the refusal's message, e.g. a truncated JPEG that only decoding finds), the source deleted.
    Idempotent: an upload not processing any more is returned as it is; one deleted meanwhile returns None and
    leaves no file."""
    attachment = Attachment.objects.filter(pk=media_id).first()
    if attachment is None or attachment.state != Attachment.PROCESSING:
        return attachment
    try:
        with default_storage.open(attachment.source, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return _store_processed(attachment, None, "The upload was lost before it was processed.")
    return _process_into(attachment, data)


def _process_into(attachment: Attachment, data: bytes) -> Attachment | None:
    try:
        processed = processing.process(data)
    except processing.InvalidImage as refused:
        return _store_processed(attachment, None, refused.message)
    return _store_processed(attachment, processed, "")


def _store_processed(attachment: Attachment, processed: processing.Processed | None, error: str) -> Attachment | None:
    """Write ``processed``'s files for the ``processing`` record ``attachment`` and make it ``ready`` (or
    ``failed`` with ``error`` when there is nothing to write), its source deleted."""
    media_id = attachment.pk
    names: list[str] = []
    changes: dict[str, object]
    if processed is None:
        changes = {"state": Attachment.FAILED, "error": error[:200], "source": ""}
    else:
        names.append(
            default_storage.save(
                f"{attachment.token}/original.{processed.extension}", ContentFile(processed.original.data)
            )
        )
        preview = ContentFile(processed.preview.data)
        names.append(default_storage.save(f"{attachment.token}/preview.{processed.extension}", preview))
        changes = {
            "state": Attachment.READY,
            "source": "",
            "original": names[0],
            "preview": names[1],
            "content_type": processed.content_type,
            "width": processed.original.width,
            "height": processed.original.height,
            "preview_width": processed.preview.width,
            "preview_height": processed.preview.height,
            "blurhash": processed.blurhash,
        }
    with transaction.atomic():
        # Conditional, so a job run twice (or racing a deletion) writes once and leaves no stray files.
        done = Attachment.objects.filter(pk=media_id, state=Attachment.PROCESSING).update(**changes)
    if not done:
        for name in names:
            default_storage.delete(name)
        return Attachment.objects.filter(pk=media_id).first()
    if attachment.source:
        default_storage.delete(attachment.source)
    return Attachment.objects.get(pk=media_id)


@dataclass(frozen=True)
class RemoteImage:
    """Another server's image named by one of its posts (issue 22), to be cached here."""

    url: str
    description: str = ""
    blurhash: str = ""
    width: int = 0
    height: int = 0
    focus: tuple[float, float] = (0.0, 0.0)


def reserve_remote(*, owner: int, status_id: int, images: Sequence[RemoteImage]) -> list[Attachment]:
    """Records for the images of another server's post ``status_id`` by ``owner``, ``processing`` with no file
    yet (a job fetches each and calls ``finish_remote``), in order; their tokens are what pages show from the
    start, so the post's hash is written once."""
    with transaction.atomic():
        return [
            Attachment.objects.create(
                owner=owner,
                kind=Attachment.IMAGE,
                token=secrets.token_urlsafe(16),
                original="",
                preview="",
                state=Attachment.PROCESSING,
                content_type="",
                width=image.width,
                height=image.height,
                preview_width=0,
                preview_height=0,
                description=image.description,
                blurhash=image.blurhash,
                focus_x=image.focus[0],
                focus_y=image.focus[1],
                status_id=status_id,
                remote_url=image.url,
            )
            for image in images
        ]


def remote_waiting(status_id: int) -> list[Attachment]:
    """The images of post ``status_id`` from another server not fetched yet."""
    return list(
        Attachment.objects.filter(status_id=status_id, state=Attachment.PROCESSING)
        .exclude(remote_url="")
        .order_by("pk")
    )


def finish_remote(attachment: Attachment, data: bytes | None, error: str = "") -> Attachment | None:
    """Cache fetched ``data`` for the reserved remote image ``attachment`` through the same processing as an
    upload (decoded from the allowed formats, metadata dropped, sizes capped), or mark it ``failed`` with
    ``error`` (None: it could not be fetched). Idempotent, as ``finish``."""
    if data is None:
        return _store_processed(attachment, None, error or "The image could not be fetched.")
    return _process_into(attachment, data)


def forget_remote(*, owner: int, reason: str) -> int:
    """Delete the cached files of ``owner``'s remote images and mark them ``failed`` with ``reason`` (their
    server's media are rejected now); their records stay, so their posts keep naming them. Returns how many."""
    found = list(Attachment.objects.filter(owner=owner, kind=Attachment.IMAGE).exclude(remote_url=""))
    for attachment in found:
        for name in {attachment.original, attachment.preview, attachment.source} - {""}:
            default_storage.delete(name)
    Attachment.objects.filter(pk__in=[a.pk for a in found]).update(
        state=Attachment.FAILED, error=reason[:200], original="", preview="", source=""
    )
    return len(found)


def create_pending_post(*, owner: int, media_ids: list[int], fields: dict[str, object]) -> PendingPost:
    """Record a post of ``owner`` waiting for ``media_ids`` to be processed, and point its uploads at it."""
    with transaction.atomic():
        pending = PendingPost.objects.create(owner=owner, fields=fields, media=list(media_ids))
        Attachment.objects.filter(pk__in=media_ids, owner=owner).update(pending_post=pending.pk)
    return pending


def pending_states(pending: PendingPost) -> list[str]:
    """The states of a pending post's uploads, in order (a deleted upload counts as failed)."""
    found = dict(Attachment.objects.filter(pk__in=pending.media).values_list("pk", "state"))
    return [found.get(media_id, Attachment.FAILED) for media_id in pending.media]


def restore_remote(*, owner: int, reason: str) -> list[int]:
    """Make ``owner``'s remote images that ``forget_remote`` marked with ``reason`` wait to be fetched again;
    returns the ids of their posts."""
    found = Attachment.objects.filter(owner=owner, kind=Attachment.IMAGE, state=Attachment.FAILED, error=reason[:200])
    status_ids = sorted(
        {status_id for status_id in found.exclude(remote_url="").values_list("status_id", flat=True) if status_id}
    )
    found.exclude(remote_url="").update(state=Attachment.PROCESSING, error="")
    return status_ids

"""Processing a large upload off the request (issue 21): the upload is checked at once (``processing.check``: size,
format, pixel limit, no markup, sound structure, no pixel decoded), stored as it came under a name never served
(``<token>/upload``), and recorded as ``processing``; a job (``timelines.tasks.process_media``) decodes and
re-encodes it later with ``finish``. Until then it has no file to serve, and no post may carry it
(``services.claimable``, Mastodon's 422). Small images stay in the request: ``limits.sync_max_pixels``.

``PendingPost`` keeps a post from the post box that waits for its images; ``timelines.services.deferred_posts``
publishes it. This module knows files and records only.
"""

from __future__ import annotations

import secrets

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
        processed = processing.process(data)
    except FileNotFoundError:
        processed, error = None, "The upload was lost before it was processed."
    except processing.InvalidImage as refused:
        processed, error = None, refused.message
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
    default_storage.delete(attachment.source)
    return Attachment.objects.get(pk=media_id)


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

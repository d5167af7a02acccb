"""Writing pictures: storing an upload's processed files, attaching uploads to a post, deleting files.

Files go through Django's storage API (``default_storage``): a directory under the data dir (``MEDIA_ROOT``),
so an object store is a storage backend away. Names are ``<token>/original.<ext>`` and
``preview.<ext>`` with a random token, never anything of the upload's name.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from media import limits, processing
from media.models import Attachment


class InvalidMedia(Exception):
    """Media ids a post may not carry: not the author's, already posted, gone, or too many."""

    def __init__(self, message: str = "These images cannot be attached.") -> None:
        super().__init__(message)
        self.message = message


def clean_description(description: str) -> str:
    description = (description or "").strip()
    if len(description) > limits.MAX_DESCRIPTION_LENGTH:
        raise processing.InvalidImage(
            f"An image description may be at most {limits.MAX_DESCRIPTION_LENGTH} characters."
        )
    return description


def upload(*, owner: int, data: bytes, description: str = "", kind: str = Attachment.IMAGE) -> Attachment:
    """Process ``data`` and store its files for ``owner``. Raises ``processing.InvalidImage`` with nothing
    stored."""
    description = clean_description(description)
    processed = processing.process(data, kind=kind)
    token = secrets.token_urlsafe(16)
    names: list[str] = []
    try:
        original = default_storage.save(f"{token}/original.{processed.extension}", ContentFile(processed.original.data))
        names.append(original)
        preview = original
        if kind == Attachment.IMAGE:
            preview = default_storage.save(
                f"{token}/preview.{processed.extension}", ContentFile(processed.preview.data)
            )
            names.append(preview)
        return Attachment.objects.create(
            owner=owner,
            kind=kind,
            token=token,
            original=original,
            preview=preview,
            content_type=processed.content_type,
            width=processed.original.width,
            height=processed.original.height,
            preview_width=processed.preview.width,
            preview_height=processed.preview.height,
            description=description,
            blurhash=processed.blurhash,
        )
    except BaseException:
        # Nothing half-written: files stored before a failure are removed with it.
        for name in names:
            default_storage.delete(name)
        raise


def claimable(*, owner: int, media_ids: Sequence[object]) -> list[int]:
    """The ids of ``media_ids`` checked for a new post of ``owner``: at most four, each an unattached image of
    ``owner``'s. Raises ``InvalidMedia``."""
    if len(media_ids) > limits.MAX_PER_POST:
        raise InvalidMedia(f"A post may carry at most {limits.MAX_PER_POST} images.")
    try:
        ids = list(dict.fromkeys(int(str(media_id)) for media_id in media_ids))
    except ValueError:
        raise InvalidMedia() from None
    found = Attachment.objects.filter(pk__in=ids, owner=owner, kind=Attachment.IMAGE, status_id__isnull=True).count()
    if found != len(ids):
        raise InvalidMedia()
    return ids


def attach(*, owner: int, media_ids: Sequence[int], status_id: int) -> None:
    Attachment.objects.filter(pk__in=media_ids, owner=owner, status_id__isnull=True).update(status_id=status_id)


def for_status(media_ids: Sequence[int]) -> list[Attachment]:
    """The attachments ``media_ids`` names, in that order (missing ones left out)."""
    found = Attachment.objects.in_bulk(list(media_ids))
    return [found[media_id] for media_id in media_ids if media_id in found]


def _delete(attachments: Sequence[Attachment]) -> int:
    for attachment in attachments:
        for name in {attachment.original, attachment.preview}:
            default_storage.delete(name)
    with transaction.atomic():
        Attachment.objects.filter(pk__in=[a.pk for a in attachments]).delete()
    return len(attachments)


def delete_for_status(status_id: int) -> int:
    """Delete the files of a deleted post."""
    return _delete(list(Attachment.objects.filter(status_id=status_id)))


def delete_for_owner(owner: int) -> int:
    """Delete every file of a deleted account."""
    return _delete(list(Attachment.objects.filter(owner=owner)))


def delete_orphans() -> int:
    """Delete the post images never attached to a post within ``limits.ORPHAN_AGE`` of their upload."""
    cutoff = timezone.now() - timedelta(seconds=limits.ORPHAN_AGE)
    return _delete(
        list(Attachment.objects.filter(kind=Attachment.IMAGE, status_id__isnull=True, created__lt=cutoff)[:1000])
    )

"""Writing pictures: storing an upload's processed files (one, or a post box's all or none), describing an
upload not yet posted, attaching uploads to a post (one conditional UPDATE), and deleting files (a post's, an
account's, replaced avatars and headers, uploads nobody posted).

Files go through Django's storage API (``default_storage``): a directory under the data dir (``MEDIA_ROOT``), or
an S3-compatible bucket (``socialsite.media_storage``). Names are ``<token>/original.<ext>`` and
``preview.<ext>`` with a random token, never anything of the upload's name. This module knows nothing of posts
but their ids: ``timelines.services.pictures`` ties uploads to statuses and profiles.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone

from media import deferred, limits, processing
from media.models import Attachment, PendingPost


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


class MediaNotFound(Exception):
    """No upload of this id that the asker owns."""


def clean_focus(focus: str | None) -> tuple[float, float]:
    """Mastodon's focal point ``"x,y"`` (each from -1.0 to 1.0; absent is the centre). Raises
    ``processing.InvalidImage``."""
    if not focus:
        return 0.0, 0.0
    try:
        x_text, y_text = str(focus).split(",")
        x, y = float(x_text), float(y_text)
    except ValueError:
        raise processing.InvalidImage("A focal point is written x,y, each from -1.0 to 1.0.") from None
    if not (-1.0 <= x <= 1.0 and -1.0 <= y <= 1.0):  # NaN fails both comparisons too
        raise processing.InvalidImage("A focal point is written x,y, each from -1.0 to 1.0.")
    return x, y


NOT_PROCESSED = "Cannot attach files that have not finished processing. Try again in a moment!"


def upload(
    *,
    owner: int,
    data: bytes,
    description: str = "",
    kind: str = Attachment.IMAGE,
    focus: str | None = None,
    defer: bool = False,
) -> Attachment:
    """Process ``data`` and store its files for ``owner``. Raises ``processing.InvalidImage`` with nothing
    stored. ``defer``: a post's image of more than ``limits.sync_max_pixels()`` is only checked and kept as it
    came (``deferred.store_source``), ``processing`` until its caller's job runs ``deferred.finish``."""
    description = clean_description(description)
    focus_x, focus_y = clean_focus(focus)
    if defer and kind == Attachment.IMAGE:
        width, height = processing.check(data)
        if width * height > limits.sync_max_pixels():
            return deferred.store_source(owner=owner, data=data, description=description, focus=(focus_x, focus_y))
    processed = processing.process(data, kind=kind, focus=(focus_x, focus_y))
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
            focus_x=focus_x,
            focus_y=focus_y,
        )
    except BaseException:
        # Nothing half-written: files stored before a failure are removed with it.
        for name in names:
            default_storage.delete(name)
        raise


def upload_many(*, owner: int, items: Sequence[tuple[bytes, str]], defer: bool = False) -> list[Attachment]:
    """Process and store the images of one post box (``(data, description)`` each), all or none: at most
    ``MAX_PER_POST``, and when one is refused the ones stored before it are deleted. Raises ``InvalidMedia``
    or ``processing.InvalidImage`` (its message naming the image when there are several)."""
    if len(items) > limits.MAX_PER_POST:
        raise InvalidMedia(f"A post may carry at most {limits.MAX_PER_POST} images.")
    stored: list[Attachment] = []
    try:
        for number, (data, description) in enumerate(items, start=1):
            try:
                stored.append(upload(owner=owner, data=data, description=description, defer=defer))
            except processing.InvalidImage as error:
                if len(items) == 1:
                    raise
                raise processing.InvalidImage(f"Image {number}: {error.message}") from None
    except BaseException:
        _delete(stored)
        raise
    return stored


def discard(*, owner: int, media_ids: Sequence[int]) -> int:
    """Delete ``owner``'s uploads ``media_ids`` that no post has (a post that was refused after its images
    were stored)."""
    return _delete(list(Attachment.objects.filter(pk__in=list(media_ids), owner=owner, status_id__isnull=True)))


def claimable(*, owner: int, media_ids: Sequence[object]) -> list[int]:
    """The ids of ``media_ids`` checked for a new post of ``owner``: at most four, each an unattached image of
    ``owner``'s. Raises ``InvalidMedia``."""
    if len(media_ids) > limits.MAX_PER_POST:
        raise InvalidMedia(f"A post may carry at most {limits.MAX_PER_POST} images.")
    try:
        ids = list(dict.fromkeys(int(str(media_id)) for media_id in media_ids))
    except ValueError:
        raise InvalidMedia() from None
    found = dict(
        Attachment.objects.filter(
            pk__in=ids, owner=owner, kind=Attachment.IMAGE, status_id__isnull=True, pending_post__isnull=True
        ).values_list("pk", "state")
    )
    if len(found) != len(ids):
        raise InvalidMedia()
    if any(state == Attachment.PROCESSING for state in found.values()):
        raise InvalidMedia(NOT_PROCESSED)
    if any(state != Attachment.READY for state in found.values()):
        raise InvalidMedia("This image could not be processed; upload it again.")
    return ids


def attach(*, owner: int, media_ids: Sequence[int], status_id: int) -> list[Attachment]:
    """Give the unattached images ``media_ids`` of ``owner`` to the new post ``status_id``, all or none, and
    return them in that order. One conditional UPDATE, so two posts racing for one upload cannot both have it:
    the loser gets ``InvalidMedia`` and keeps none."""
    with transaction.atomic():
        claimed = Attachment.objects.filter(
            pk__in=media_ids, owner=owner, kind=Attachment.IMAGE, status_id__isnull=True, state=Attachment.READY
        ).update(status_id=status_id, pending_post=None)
        if claimed != len(media_ids):
            transaction.set_rollback(True)
            raise InvalidMedia()
    return for_status(media_ids)


def of_post(*, owner: int, media_ids: Sequence[int], status_id: int) -> list[int]:
    """Which of ``media_ids`` are ``owner``'s images attached to post ``status_id`` already (an edit keeping an
    image, or taking back one an earlier version had)."""
    return list(
        Attachment.objects.filter(
            pk__in=list(media_ids), owner=owner, kind=Attachment.IMAGE, status_id=status_id
        ).values_list("pk", flat=True)
    )


def describe_posted(*, owner: int, status_id: int, descriptions: dict[int, str]) -> None:
    """Set the alt texts of images of post ``status_id`` (an edit; the history keeps the earlier ones in its
    versions). Descriptions are checked by the caller (``clean_description``)."""
    for media_id, description in descriptions.items():
        Attachment.objects.filter(pk=media_id, owner=owner, status_id=status_id).update(description=description)


def detach(*, status_id: int) -> None:
    """Undo ``attach`` for a post that could not be written: its images are unattached uploads again."""
    Attachment.objects.filter(status_id=status_id).update(status_id=None)


def get_own(*, owner: int, media_id: object) -> Attachment:
    """``owner``'s upload ``media_id``. Raises ``MediaNotFound`` (someone else's is not found either)."""
    try:
        pk = int(str(media_id))
    except ValueError:
        raise MediaNotFound() from None
    found = Attachment.objects.filter(pk=pk, owner=owner, kind=Attachment.IMAGE).first()
    if found is None:
        raise MediaNotFound()
    return found


def update(*, owner: int, media_id: object, description: str | None = None, focus: str | None = None) -> Attachment:
    """Change the alt text or focal point of ``owner``'s upload while it is not posted yet (as Mastodon: a
    posted image changes with an edit of its post). Raises ``MediaNotFound``, ``InvalidMedia`` (posted
    already) or ``processing.InvalidImage``."""
    attachment = get_own(owner=owner, media_id=media_id)
    if attachment.status_id is not None:
        raise InvalidMedia("This image is posted already; it cannot be changed.")
    changed: list[str] = []
    if description is not None:
        attachment.description = clean_description(description)
        changed.append("description")
    if focus is not None:
        attachment.focus_x, attachment.focus_y = clean_focus(focus)
        changed += ["focus_x", "focus_y"]
    if changed:
        attachment.save(update_fields=changed)
    return attachment


def for_status(media_ids: Sequence[int]) -> list[Attachment]:
    """The attachments ``media_ids`` names, in that order (missing ones left out)."""
    found = Attachment.objects.in_bulk(list(media_ids))
    return [found[media_id] for media_id in media_ids if media_id in found]


def _delete(attachments: Sequence[Attachment]) -> int:
    for attachment in attachments:
        for name in {attachment.original, attachment.preview, attachment.source} - {""}:
            default_storage.delete(name)
    with transaction.atomic():
        Attachment.objects.filter(pk__in=[a.pk for a in attachments]).delete()
    return len(attachments)


def delete_for_status(status_id: int) -> int:
    """Delete the files of a deleted post."""
    return _delete(list(Attachment.objects.filter(status_id=status_id)))


def delete_images(*, status_id: int, media_ids: Sequence[int]) -> int:
    """Delete images ``media_ids`` of post ``status_id`` (a moderator's removal: the post stays)."""
    return _delete(list(Attachment.objects.filter(pk__in=list(media_ids), status_id=status_id)))


def delete_tokens(tokens: Sequence[str]) -> int:
    """Delete the pictures of these URL tokens (an avatar or header replaced)."""
    return _delete(list(Attachment.objects.filter(token__in=[token for token in tokens if token])))


def delete_for_owner(owner: int) -> int:
    """Delete every file of a deleted account."""
    return _delete(list(Attachment.objects.filter(owner=owner)))


def delete_orphans() -> int:
    """Delete the post images never attached to a post within ``limits.ORPHAN_AGE`` of their upload."""
    cutoff = timezone.now() - timedelta(seconds=limits.ORPHAN_AGE)
    # A post still waiting for its images after a day will not be published (its uploads go just below).
    PendingPost.objects.filter(created__lt=cutoff).delete()
    return _delete(
        list(
            Attachment.objects.filter(kind=Attachment.IMAGE, status_id__isnull=True, created__lt=cutoff)[
                : limits.ORPHAN_BATCH
            ]
        )
    )

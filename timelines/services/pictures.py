"""Images on posts (issue 21): checking and claiming a new post's uploads (``media.services``, their SQL records
and files), and what its status hash keeps of them.

The status hash keeps a display copy of each image (``records.MediaItem``: id, URL token, sizes, alt text,
blurhash, focus), written once with the post, so every reader that already reads the hash (pages, live pages,
the client API, the streams) has the images with no further round trip or SQL query. The SQL record stays the
authority for the files, their owner and who may fetch them (``views.media``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace

from django.db import transaction

from media import limits as media_limits
from media import services as media_services
from media.models import Attachment
from media.processing import InvalidImage
from timelines import exceptions, hooks, queue, store
from timelines.records import MediaItem

PICTURES = (Attachment.AVATAR, Attachment.HEADER)
_MAX_ID = 2**63  # an SQL id is a signed 64-bit integer


def item_of(attachment: Attachment) -> MediaItem:
    return MediaItem(
        id=attachment.pk,
        token=attachment.token,
        width=attachment.width,
        height=attachment.height,
        preview_width=attachment.preview_width,
        preview_height=attachment.preview_height,
        description=attachment.description,
        blurhash=attachment.blurhash,
        focus_x=attachment.focus_x,
        focus_y=attachment.focus_y,
    )


def check_media(*, uid: int, media_ids: Sequence[object]) -> list[int]:
    """The ids of ``media_ids`` a new post of ``uid`` may carry (at most four of ``uid``'s unposted uploads).
    Raises ``InvalidMedia`` before anything is written."""
    try:
        return media_services.claimable(owner=uid, media_ids=list(media_ids))
    except media_services.InvalidMedia as error:
        raise exceptions.InvalidMedia(error.message) from None


def claim_media(*, uid: int, media_ids: Sequence[int], status_id: int) -> tuple[MediaItem, ...]:
    """Attach the checked ``media_ids`` to the new post ``status_id``, all or none. Raises ``InvalidMedia``
    when another post took one meanwhile."""
    try:
        return tuple(item_of(a) for a in media_services.attach(owner=uid, media_ids=media_ids, status_id=status_id))
    except media_services.InvalidMedia as error:
        raise exceptions.InvalidMedia(error.message) from None


def plan_edit_media(
    *,
    uid: int,
    status_id: int,
    current: Sequence[MediaItem],
    media_ids: Sequence[object] | None,
    descriptions: Mapping[object, str] | None,
) -> tuple[tuple[MediaItem, ...], list[int], dict[int, str]]:
    """The images of post ``status_id`` after an edit of ``uid``'s (issue 21): ``media_ids`` (None keeps the
    ones it has), each one it has, one an earlier version had, or one of ``uid``'s unposted uploads, at most
    four; ``descriptions`` (id -> alt text) rewrites alt texts. Returns (the images in order, the uploads to
    claim, the alt texts to store). Raises ``InvalidMedia``, with nothing written."""
    try:
        texts = {int(str(key)): media_services.clean_description(value) for key, value in (descriptions or {}).items()}
        if media_ids is None:
            ids = [item.id for item in current]
        else:
            if len(media_ids) > media_limits.MAX_PER_POST:
                raise exceptions.InvalidMedia(f"A post may carry at most {media_limits.MAX_PER_POST} images.")
            ids = list(dict.fromkeys(int(str(media_id)) for media_id in media_ids))
        if not all(0 < media_id < _MAX_ID for media_id in [*ids, *texts]):
            raise ValueError(ids)
    except ValueError:
        raise exceptions.InvalidMedia() from None
    except InvalidImage as error:
        raise exceptions.InvalidMedia(error.message) from None
    kept = {item.id: item for item in current}
    others = [media_id for media_id in ids if media_id not in kept]
    earlier = set(media_services.of_post(owner=uid, media_ids=others, status_id=status_id)) if others else set()
    new = [media_id for media_id in others if media_id not in earlier]
    if new:
        check_media(uid=uid, media_ids=new)
    found = {a.pk: item_of(a) for a in media_services.for_status(others)}
    items = []
    for media_id in ids:
        item = kept.get(media_id) or found.get(media_id)
        if item is None:  # deleted since it was checked (the clean-up job took an old upload)
            raise exceptions.InvalidMedia()
        if media_id in texts:
            item = replace(item, description=texts[media_id])
        items.append(item)
    return tuple(items), new, {media_id: text for media_id, text in texts.items() if media_id in ids}


@contextmanager
def media_claimed(*, uid: int, status_id: int, new: Sequence[int], descriptions: Mapping[int, str]) -> Iterator[None]:
    """Claim the checked uploads ``new`` for the edited post ``status_id`` and store its ``descriptions`` in one
    SQL transaction around the block (the edit's Redis script): when the block raises, none of it stays.
    Raises ``InvalidMedia`` when another post took an upload meanwhile. With neither, no SQL at all."""
    if not new and not descriptions:
        yield
        return
    with transaction.atomic():
        if new:
            claim_media(uid=uid, media_ids=new, status_id=status_id)
        if descriptions:
            media_services.describe_posted(owner=uid, status_id=status_id, descriptions=dict(descriptions))
        yield


def release_media(*, status_id: int) -> None:
    """The images of a post that could not be written go back to being unposted uploads."""
    media_services.detach(status_id=status_id)


def delete_media(*, status_id: int) -> int:
    """Delete the files and records of a deleted post's images."""
    return media_services.delete_for_status(status_id)


def set_picture(*, uid: int, kind: str, data: bytes | None, focus: str | None = None) -> str:
    """Give ``uid`` a new avatar or header (``kind``) from uploaded ``data``, cropped around ``focus`` (Mastodon's
    "x,y"; the centre when None), or remove it (None); returns the new URL token ("" for none). The user hash
    keeps the token (a reference to the SQL record and its files); the picture replaced is deleted. Raises
    ``InvalidMedia`` (the image refused: nothing changes) or ``UnknownUser``."""
    if kind not in PICTURES:
        raise ValueError(kind)
    token = ""
    if data is not None:
        try:
            token = media_services.upload(owner=uid, data=data, kind=kind, focus=focus).token
        except InvalidImage as error:
            raise exceptions.InvalidMedia(error.message) from None
    old = store.profiles.update_user(uid, {kind: token})
    if old is None:
        media_services.delete_tokens([token])
        raise exceptions.UnknownUser()
    if old[kind] and old[kind] != token:
        media_services.delete_tokens([str(old[kind])])
    if (old[kind] or "") != token:
        hooks.profile_changed(uid=uid)  # the servers that follow a local account get its new picture
    return token


def delete_account_media(*, uid: int) -> int:
    """Delete every picture of an erased account: its avatar, header and uploads (its posts' images go with each
    post)."""
    return media_services.delete_for_owner(uid)


def clean_up_media() -> int:
    """Delete a batch of uploads nobody posted within ``media.limits.ORPHAN_AGE`` (a day); queue the next batch
    when this one was full. Returns how many were deleted. Idempotent."""
    deleted = media_services.delete_orphans()
    if deleted >= media_limits.ORPHAN_BATCH:
        queue.enqueue_media_cleanup(more=True)
    return deleted

"""Pictures processed off the request (issue 21): a post image of more than ``media.limits.sync_max_pixels()`` is
checked and kept as it came, and a job (``timelines.tasks.process_media``) processes it, so the upload answers at
once; the client API then shows it as processing (``url: null``, Mastodon's 202 and 206) and refuses a post that
carries it until it is ready (Mastodon's 422). The post box sends its images with its post, so there the post
waits: it is kept as a ``media.models.PendingPost`` and published by the job that finishes its last image, live
like any new post. A post whose image a job refuses (a truncated file only decoding finds) is dropped with its
uploads, as a post refused in the request would be.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from django.db import transaction

from media import deferred
from media import services as media_services
from media.models import Attachment, PendingPost
from timelines import exceptions, queue
from timelines.services import statuses

log = logging.getLogger(__name__)


def upload_image(*, owner: int, data: bytes, description: str = "", focus: str | None = None) -> Attachment:
    """Store an upload of ``owner``'s: processed now when small, else checked, kept and queued for processing
    (the record is ``processing`` then). Raises ``media.processing.InvalidImage`` with nothing stored."""
    picture = media_services.upload(owner=owner, data=data, description=description, focus=focus, defer=True)
    if picture.state == Attachment.PROCESSING:
        queue.enqueue_media_processing(media_id=picture.pk)
    return picture


def post_when_ready(*, uid: int, media_ids: Sequence[int], fields: Mapping[str, object]) -> int:
    """Keep the post ``fields`` (``post_status``'s arguments but ``uid`` and ``media_ids``) until the uploads
    ``media_ids`` are processed, and queue their processing. Returns the pending post's id. Raises what
    ``statuses.check_post`` raises, with nothing kept."""
    statuses.check_post(
        uid=uid,
        message=str(fields.get("message") or ""),
        in_reply_to=fields.get("in_reply_to"),  # type: ignore[arg-type]
        visibility=fields.get("visibility"),  # type: ignore[arg-type]
    )
    pending = deferred.create_pending_post(owner=uid, media_ids=list(media_ids), fields=dict(fields))
    for picture in media_services.for_status(list(media_ids)):
        if picture.state == Attachment.PROCESSING:
            queue.enqueue_media_processing(media_id=picture.pk)
    return pending.pk


def process(*, media_id: int) -> str | None:
    """The job: process upload ``media_id``, then publish the post waiting for it when its images are all ready.
    Idempotent (a second run finds the upload processed and the post published). Returns the upload's state."""
    picture = deferred.finish(media_id)
    if picture is None:
        return None
    if picture.pending_post is not None:
        publish(pending_id=picture.pending_post)
    return picture.state


def publish(*, pending_id: int) -> int | None:
    """Publish pending post ``pending_id`` when none of its images is processing any more: the new status id, or
    None (still waiting, already published by another job, or dropped because an image was refused or the post
    itself is refused now, e.g. the post it answers is gone; its uploads are deleted then). A Redis failure
    raises with the pending post kept, so the job's retry publishes it."""
    pending = PendingPost.objects.filter(pk=pending_id).first()
    if pending is None:
        return None
    states = deferred.pending_states(pending)
    if Attachment.PROCESSING in states:
        return None
    refused: str | None = None
    with transaction.atomic():
        # The row's deletion is the claim: of two jobs finishing the last images at once, one deletes it.
        if not PendingPost.objects.filter(pk=pending_id).delete()[0]:
            return None
        if Attachment.FAILED in states:
            refused = "an image could not be processed"
        else:
            Attachment.objects.filter(pk__in=pending.media).update(pending_post=None)
            try:
                return statuses.post_status(uid=pending.owner, media_ids=pending.media, **pending.fields)
            except exceptions.TimelineError as error:
                refused = str(error)
    log.info("pending post %s of %s dropped: %s", pending_id, pending.owner, refused)
    media_services.discard(owner=pending.owner, media_ids=pending.media)
    return None

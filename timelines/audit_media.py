"""The audit's check of pictures (``manage.py audit_timelines``, ``timelines.audit``), and its repair.

A picture's SQL record (``media.models.Attachment``) and files are leftovers when nothing can show them any
more: an upload nobody posted within ``media.limits.ORPHAN_AGE``, an image of a post whose status hash is gone
(its deletion was interrupted before the files went), an avatar or header its owner's user hash no longer names
(replaced, removed, or the account erased). The repair deletes the files and the record, as the clean-up job
and a post's deletion do. Cost: O(pictures), the hashes read in pipelined chunks.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.utils import timezone

from media import limits as media_limits
from media import services as media_services
from media.models import Attachment
from timelines import keys, store
from timelines.audit_messages import Finding

CHUNK = 200


def _chunks(items: Sequence[Attachment]) -> list[Sequence[Attachment]]:
    return [items[start : start + CHUNK] for start in range(0, len(items), CHUNK)]


def media_leftovers(finding: Finding, *, fix: bool) -> None:
    cutoff = timezone.now() - timedelta(seconds=media_limits.ORPHAN_AGE)
    leftovers: list[Attachment] = []
    pictures = list(Attachment.objects.order_by("pk"))
    finding.checked += len(pictures)
    for chunk in _chunks([p for p in pictures if p.kind == Attachment.IMAGE]):
        posted = [p for p in chunk if p.status_id is not None]
        exists = store.graph.keys_exist([keys.status(p.status_id) for p in posted])  # type: ignore[arg-type]
        leftovers += [p for p, found in zip(posted, exists, strict=True) if not found]
        leftovers += [p for p in chunk if p.status_id is None and p.created < cutoff]
    for chunk in _chunks([p for p in pictures if p.kind != Attachment.IMAGE]):
        named = store.users.get_users([p.owner for p in chunk])
        leftovers += [p for p, fields in zip(chunk, named, strict=True) if fields.get(p.kind) != p.token]
    for picture in leftovers:
        finding.problem(f"{picture.kind} {picture.pk} of uid {picture.owner} (post {picture.status_id})")
    if fix and leftovers:
        finding.fixed += media_services.delete_tokens([picture.token for picture in leftovers])

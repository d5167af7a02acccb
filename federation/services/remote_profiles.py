"""What a remote account's profile shows beyond its name and bio (issue 22): its counts and its pictures.

**Counts.** Each time the actor is fetched (found, or refreshed after ``actors.REFRESH_SECONDS``), the
``totalItems`` of its ``followers``, ``following`` and ``outbox`` collections are read, as Mastodon does for remote
accounts: from the collection embedded in the actor document, else by fetching it (on the actor's own host, signed
by the instance actor, at most ``COUNT_BYTES`` each, ``COUNTS_SECONDS`` for the three). They are kept in the
profile's hash (``remote_followers``, ``remote_following``, ``remote_posts``), so a page read costs nothing more;
a collection that cannot be read keeps the count it had. ``records.User.followers_count`` and its siblings show
them instead of what this server knows (the followers here, the posts stored here).

**Pictures.** The actor's ``icon`` (avatar) and ``image`` (header) are fetched by a job (``cache_pictures``) when
the addresses it names differ from the ones cached (``RemoteActor.*_cached_from``), through
``remote_media.download``, and stored as the account's avatar and header by the same service as a local
person's (``timelines.services.pictures.set_picture``: cropped square and 3:1, the old file deleted). Nothing is
fetched from a server whose media are rejected, and its accounts' cached pictures are deleted (and fetched again
when the block is lifted).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from federation import client, queue
from federation.models import RemoteActor
from federation.services import domain_blocks, remote_media
from media import deferred
from media.models import Attachment
from timelines import exceptions
from timelines import store as timelines_store
from timelines.services import pictures

logger = logging.getLogger(__name__)

COUNT_BYTES = 64 * 1024
COUNTS_SECONDS = 6.0
MAX_COUNT = 10**12
# Actor document field -> the profile hash's field.
COUNT_FIELDS = {"followers": "remote_followers", "following": "remote_following", "outbox": "remote_posts"}
KINDS = {Attachment.AVATAR: "icon", Attachment.HEADER: "image"}


def _total(value: Any, actor_uri: str, deadline: float) -> int | None:
    """A collection's ``totalItems``: embedded, or fetched from the actor's host before ``deadline``."""
    if isinstance(value, str) and client.same_host(value, actor_uri):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        try:
            value = client.fetch_object(value, max_bytes=COUNT_BYTES, timeout=remaining)
        except client.FetchError as error:
            logger.info("A remote collection's count was not read: %s", error)
            return None
    total = value.get("totalItems") if isinstance(value, dict) else None
    return total if isinstance(total, int) and not isinstance(total, bool) and 0 <= total < MAX_COUNT else None


def read_counts(actor: RemoteActor, document: dict[str, Any]) -> dict[str, int]:
    """Read the counts of ``actor`` (whose actor ``document`` this is) and keep them with its profile. Returns the
    ones read (the others keep their value). At most three fetches, in ``COUNTS_SECONDS`` in all."""
    deadline = time.monotonic() + COUNTS_SECONDS
    found = {}
    for name, field in COUNT_FIELDS.items():
        total = _total(document.get(name), actor.uri, deadline)
        if total is not None:
            found[field] = total
    if found:
        timelines_store.users.write_user(actor.uid, dict(found))
    return found


def picture_fields(document: dict[str, Any]) -> dict[str, str]:
    """The ``RemoteActor`` fields naming the pictures of actor ``document`` ("" for none)."""
    return {f"{kind}_remote_url": remote_media.picture_url(document.get(field)) or "" for kind, field in KINDS.items()}


def pictures_stale(actor: RemoteActor) -> bool:
    return (actor.avatar_remote_url, actor.header_remote_url) != (actor.avatar_cached_from, actor.header_cached_from)


def queue_pictures(actor: RemoteActor) -> None:
    """Queue ``cache_pictures`` for ``actor`` when its pictures changed since they were cached (and its server's
    media are not rejected)."""
    if pictures_stale(actor) and not domain_blocks.rejects_media(actor.domain):
        queue.enqueue_remote_pictures(uid=actor.uid)


def cache_pictures(*, uid: int, last_try: bool = True) -> int:
    """Fetch the avatar and header of remote account ``uid`` that changed, and keep them as its profile's (a job).
    A picture gone from the actor, or from a server whose media are rejected, is removed. One that cannot be
    fetched keeps the old one and is tried again at the next refresh; one that processing refuses is not. When
    the failure may pass (``client.FetchError.transient``) and this is not the ``last_try``,
    ``remote_media.TryAgain`` is raised once the other picture is done, so the job runs again later. Returns how
    many pictures changed. Idempotent."""
    actor = RemoteActor.objects.filter(uid=uid).first()
    if actor is None:
        return 0
    rejected = domain_blocks.rejects_media(actor.domain) or domain_blocks.is_suspended(actor.domain)
    changed = 0
    postponed: list[str] = []
    for kind in KINDS:
        wanted = "" if rejected else getattr(actor, f"{kind}_remote_url")
        if wanted == getattr(actor, f"{kind}_cached_from") and not (rejected and _has_picture(uid, kind)):
            continue
        data = None
        if wanted:
            try:
                data = remote_media.download(wanted)
            except client.FetchError as error:
                if error.transient and not last_try:
                    postponed.append(str(error))
                    continue
                logger.info("A remote account's %s was not cached: %s", kind, error)
                continue
        try:
            pictures.set_picture(uid=uid, kind=kind, data=data)
            changed += 1
        except exceptions.InvalidMedia as error:
            logger.info("A remote account's %s was refused: %s", kind, error.message)
        except exceptions.UnknownUser:
            return changed
        # Only if the actor still names it: a refresh meanwhile queued the next job.
        RemoteActor.objects.filter(pk=actor.pk, **{f"{kind}_remote_url": getattr(actor, f"{kind}_remote_url")}).update(
            **{f"{kind}_cached_from": getattr(actor, f"{kind}_remote_url") if not rejected else ""}
        )
    if postponed:
        raise remote_media.TryAgain("; ".join(postponed))
    return changed


def _has_picture(uid: int, kind: str) -> bool:
    return bool(timelines_store.users.get_user(uid).get(kind))


def apply_media_policy(*, domain: str) -> int:
    """Apply the media side of ``domain``'s block to its accounts (and its subdomains') after the block changed:
    when their media are rejected, what was cached of their posts' images (their URLs answer the stand-in) and
    their avatars and headers (the generated picture again) is deleted; when they are not (any more), the images
    and pictures a rejection removed are fetched again, by jobs. Returns how many accounts changed. O(accounts
    of the domain) (a job)."""
    changed = 0
    for actor in domain_blocks.actors_of(domain).iterator():
        if domain_blocks.rejects_media(actor.domain):
            forgotten = deferred.forget_remote(owner=actor.uid, reason=remote_media.REJECTED)
            changed += bool(cache_pictures(uid=actor.uid) or forgotten)
            continue
        waiting = deferred.restore_remote(owner=actor.uid, reason=remote_media.REJECTED)
        for status_id in waiting:
            queue.enqueue_remote_images(status_id=status_id, again=True)
        queue_pictures(actor)
        changed += bool(waiting or pictures_stale(actor))
    return changed

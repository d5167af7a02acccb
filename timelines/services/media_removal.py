"""A moderator's removal of one image of a post (issue 21): the post stays, the image goes everywhere. The status
hash's display copy and every earlier version in its history lose it in one script on the status's slot
(``store.edits.remove_media``), which moves the post's version on as an edit does, so every cache (decoded
statuses, rendered fragments) shows the post without it at once; then the image's SQL record and files are
deleted (its URL answers 404), and ``status.updated`` tells live pages and the streams.
"""

from __future__ import annotations

import json
from typing import Any

from media import services as media_services
from timelines import events, exceptions, hooks, store
from timelines.records import media_of, stored_media
from timelines.services.cleanup import typed
from timelines.services.edits import version_of
from timelines.services.publishing import publish

NO_SUCH_IMAGE = "This post has no such image."
_ATTEMPTS = 5


def _without(version: str, media_id: int) -> str:
    """A version's JSON (``keys.status_versions``) without image ``media_id``."""
    data: dict[str, Any] = json.loads(version)
    kept = [item for item in data.get("media") or [] if int(item.get("id", 0)) != media_id]
    if kept:
        data["media"] = kept
    else:
        data.pop("media", None)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def remove_image(*, status_id: int, media_id: int) -> int:
    """Remove image ``media_id`` from post ``status_id`` and from its history, and delete its files. Returns the
    author's uid. Raises ``StatusNotFound`` and ``InvalidMedia`` (``NO_SUCH_IMAGE``: not one of the post's
    images now). Costs: one read of the hash and versions, one script, one SQL delete, one event."""
    for _ in range(_ATTEMPTS):
        old, versions = store.edits.get_history(status_id)
        if not old or old.get("repost_of"):
            raise exceptions.StatusNotFound()
        items = media_of(old.get("media"))
        if media_id not in {item.id for item in items}:
            raise exceptions.InvalidMedia(NO_SUCH_IMAGE)
        kept = [item for item in items if item.id != media_id]
        media = stored_media(kept) if kept else ""
        outcome, edits = store.edits.remove_media(
            status_id,
            expected_edits=int(old.get("edits") or 0),
            media=media,
            replaced_version=_without(version_of(old), media_id),
            versions=[_without(version, media_id) for version in versions],
        )
        if outcome == store.edits.MISSING:
            raise exceptions.StatusNotFound()
        if outcome == store.edits.CONFLICT:
            continue  # edited meanwhile: read again
        media_services.delete_images(status_id=status_id, media_ids=[media_id])
        current = {name: value for name, value in old.items() if name != "media"}
        if media:
            current["media"] = media
        current["edits"] = str(edits)
        hooks.status_edited(current)
        published: dict[str, Any] = typed(current)
        published["edits"] = edits
        if current.get("edited_at"):
            published["edited_at"] = float(current["edited_at"])
        publish(events.status_updated(published))
        return int(old["uid"])
    raise exceptions.StatusNotFound()  # edited by its author on every attempt: vanishingly rare; nothing written

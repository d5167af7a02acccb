"""Reading the versions of an edited status (issue 19): the text it has now and every earlier one
(``keys.status_versions``), newest first."""

from __future__ import annotations

import json

from timelines import exceptions, policy, store
from timelines.records import Status, StatusVersion, media_of

_ANYONE = object()


def get_status_history(*, status_id: int, viewer_uid: int | object | None = _ANYONE) -> list[StatusVersion]:
    """Every version of status ``status_id``, newest first: the current text (since its last edit, or since it
    was posted), then the earlier ones; one version for a status never edited. With ``viewer_uid`` (None: an
    anonymous reader), only if the policy lets that viewer see the status, as its page does. Raises
    ``StatusNotFound``. One round trip, plus the policy's."""
    fields, earlier = store.edits.get_history(status_id)
    if not fields or fields.get("repost_of"):
        raise exceptions.StatusNotFound()
    status = Status.from_hash(fields)
    if viewer_uid is not _ANYONE and not policy.may_see(viewer=viewer_uid, status=status):  # type: ignore[arg-type]
        raise exceptions.StatusNotFound()
    versions = [
        StatusVersion(
            message=status.message,
            time=status.edited_at if status.edited_at is not None else status.posted,
            mention_logins=status.mention_logins,
            current=True,
            media=status.media,
            sensitive=status.sensitive,
        )
    ]
    for raw in earlier:
        item = json.loads(raw)
        versions.append(
            StatusVersion(
                message=str(item.get("message", "")),
                time=float(item.get("time", status.posted)),
                mention_logins=tuple(str(login) for login in item.get("mentions", ())),
                media=media_of(item.get("media")),
                sensitive=status.sensitive,
            )
        )
    return versions

"""Reading single statuses."""

from __future__ import annotations

from timelines import exceptions, policy, store
from timelines.records import Status, TimelineEntry
from timelines.selectors.entries import entries_for

_ANYONE = object()


def get_status(*, status_id: int, viewer_uid: int | object | None = _ANYONE) -> Status:
    """The status ``status_id``. With ``viewer_uid`` (None: an anonymous reader), only if the policy lets that
    viewer see it. Raises ``StatusNotFound``."""
    fields = store.statuses.get_status(status_id)
    if not fields:
        raise exceptions.StatusNotFound()
    status = Status.from_hash(fields)
    if viewer_uid is not _ANYONE and not policy.may_see(viewer=viewer_uid, status=status):  # type: ignore[arg-type]
        raise exceptions.StatusNotFound()
    return status


def status_exists(*, status_id: int) -> bool:
    return store.statuses.status_exists(status_id)


def get_entry(*, status_id: int, viewer_uid: int | None = None) -> TimelineEntry:
    """One post as ``viewer_uid`` sees it in a timeline: with the viewer's like and repost flags (the
    original, for a repost). Raises ``StatusNotFound``, also when the viewer may not see it."""
    entries, _ = entries_for([status_id], viewer=viewer_uid, context=policy.PAGE)
    if not entries:
        raise exceptions.StatusNotFound()
    return entries[0]

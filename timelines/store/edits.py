"""Edited statuses (issue 19): rewriting a status's text while keeping its earlier versions
(``keys.status_versions``), and reading them back.

See ``timelines.store`` for the rules every store module follows. A status hash and its versions list share
the status's hash tag, so an edit is one script on one slot (``scripts/edit_status.lua``) and a history is
one pipelined round trip to one node, on a single server and on a cluster alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from socialsite.redis_client import get_redis
from timelines import keys, limits
from timelines.store.lua import script as _script
from timelines.store.status_hash import STORED_NAMES, from_stored

EDITED, MISSING, NOT_OWNER, CONFLICT, FULL = "edited", "missing", "not_owner", "conflict", "full"
# The fields an edit rewrites, as readers know them (``media``: its images, issue 21).
EDITED_FIELDS = ("message", "mentions", "tags", "media")


def edit_status(
    status_id: int,
    uid: int,
    *,
    expected_edits: int,
    fields: dict[str, str],
    replaced_version: str,
    edited_at: str,
) -> tuple[str, int]:
    """Rewrite ``fields`` (those given of ``EDITED_FIELDS``; "" removes one but the text) of status
    ``status_id`` if ``uid`` wrote it and its ``edits`` is still ``expected_edits``, pushing
    ``replaced_version`` (JSON) onto its versions list and setting ``edited_at``. Returns (outcome, edits now):
    ``EDITED``, or ``MISSING``, ``NOT_OWNER``, ``CONFLICT`` (edited meanwhile: read again) or ``FULL``
    (``limits.MAX_STATUS_VERSIONS`` reached), with nothing written. One script."""
    args: list[str | int] = [uid, expected_edits, limits.MAX_STATUS_VERSIONS - 1, replaced_version, edited_at]
    for name in EDITED_FIELDS:
        if name in fields:
            args.extend([STORED_NAMES.get(name, name), name, fields[name]])
    reply = _script("edit_status")(keys=[keys.status(status_id), keys.status_versions(status_id)], args=args)
    return str(reply[0]), int(reply[1]) if len(reply) > 1 else 0


def get_history(status_id: int) -> tuple[dict[str, str], list[str]]:
    """The status hash as readers know it (``{}`` when there is none) and its earlier versions' JSON, newest
    first. One pipelined round trip (one slot)."""
    with get_redis().pipeline(transaction=False) as pipe:
        pipe.hgetall(keys.status(status_id))
        pipe.lrange(keys.status_versions(status_id), 0, -1)
        stored, versions = pipe.execute()
    return from_stored(status_id, stored), list(versions)


def version_counts(status_ids: Sequence[int]) -> list[tuple[int, int, bool]]:
    """For each status: its ``edits`` counter (0 when absent), the length of its versions list, and whether its
    hash exists. One pipelined round trip (the statuses span slots: a pipeline, not a script)."""
    if not status_ids:
        return []
    with get_redis().pipeline(transaction=False) as pipe:
        for status_id in status_ids:
            pipe.hget(keys.status(status_id), "edits")
            pipe.llen(keys.status_versions(status_id))
            pipe.exists(keys.status(status_id))
        found = pipe.execute()
    return [(int(found[i] or 0), int(found[i + 1]), bool(found[i + 2])) for i in range(0, len(found), 3)]


def repair_versions(status_id: int) -> None:
    """Make the ``edits`` counter of ``status_id`` agree with its versions list (the versions kept are the
    record; at most ``limits.MAX_STATUS_VERSIONS`` - 1), or drop the list of a status that is gone. A repair for
    ``audit_timelines --fix``; idempotent. One script (one slot)."""
    _script("repair_versions")(
        keys=[keys.status(status_id), keys.status_versions(status_id)], args=[limits.MAX_STATUS_VERSIONS - 1]
    )


REMOVED = "removed"


def remove_media(
    status_id: int, *, expected_edits: int, media: str, replaced_version: str, versions: Sequence[str]
) -> tuple[str, int]:
    """Rewrite the images of ``status_id`` to ``media`` ("" for none) and its earlier ``versions`` (the list as
    read, newest first, each rewritten by the caller), pushing ``replaced_version`` as an edit does, if its
    ``edits`` is still ``expected_edits``. Returns (``REMOVED``, edits now), or (``MISSING`` or ``CONFLICT``,
    0) with nothing written. One script (``scripts/remove_media.lua``)."""
    args: list[str | int] = [expected_edits, limits.MAX_STATUS_VERSIONS - 1, "media", media, replaced_version]
    args.extend(versions)
    reply = _script("remove_media")(keys=[keys.status(status_id), keys.status_versions(status_id)], args=args)
    return str(reply[0]), int(reply[1]) if len(reply) > 1 else 0

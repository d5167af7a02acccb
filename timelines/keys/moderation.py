"""Keys of moderation: who is suspended or limited right now, in one small set each, so the streams and the
dashboard know without scanning users, and the per-hour activity counters of the admin dashboard::

    users:suspended      SET  uids of suspended accounts (also ``suspended`` 1 in each user:{uid})
    users:limited        SET  uids of limited accounts (also ``limited`` 1 in each user:{uid})
    stats:{stats}:posts:2026112314    STRING  posts made in that hour (UTC); every counter expires after 15 days
    stats:{stats}:signups:20261123    STRING  sign-ups that day; likewise reports:, resolved:
    stats:{stats}:active:20261123     HyperLogLog  users who posted, liked or followed that day

The counters share the hash tag ``{stats}``, so the dashboard reads a week of them in one pipeline on one
slot.
"""

from __future__ import annotations

SUSPENDED_USERS = "users:suspended"
LIMITED_USERS = "users:limited"


def stat(name: str, bucket: str) -> str:
    """The counter ``name`` (posts, signups, reports, resolved, active) of one hour or day bucket."""
    return f"stats:{{stats}}:{name}:{bucket}"

"""The moderators' audit log: Django's own ``LogEntry``, so every action shows in the admin's "Recent actions"
and in the history of the account it concerns, with who did it, when, and the reason.

One entry per action, on the affected ``User``: ``CHANGE`` for suspend, limit, their undo, a removed post and a
resolved report; ``DELETION`` for a deleted account (its history page is gone with it, "Recent actions" keeps
the entry). The change message is plain text ("Suspended: <reason>"), which the admin shows as it is.
"""

from __future__ import annotations

from django.contrib.admin.models import CHANGE, DELETION, LogEntry
from django.contrib.contenttypes.models import ContentType

from accounts.models import User

SUSPENDED = "Suspended: {reason}"
UNSUSPENDED = "Unsuspended: {reason}"
LIMITED = "Limited: {reason}"
UNLIMITED = "Unlimited: {reason}"
REMOVED_POST = "Removed post {status_id}: {reason}"
REMOVED_IMAGE = "Removed image {media_id} of post {status_id}: {reason}"
DELETED_ACCOUNT = "Deleted account: {reason}"
RESOLVED_REPORT = "Resolved report {report_id}: {note}"


def record(*, moderator: User, user: User, message: str, deletion: bool = False) -> LogEntry:
    """Write one audit entry: ``moderator`` did ``message`` to ``user``. Returns the entry."""
    return LogEntry.objects.log_actions(
        user_id=moderator.pk,
        queryset=[user],
        action_flag=DELETION if deletion else CHANGE,
        change_message=message,
        single_object=True,
    )


def entries_for(*, user: User) -> list[LogEntry]:
    """The audit entries about ``user``, newest first (what the account's history page lists)."""
    content_type = ContentType.objects.get_for_model(User, for_concrete_model=False)
    return list(
        LogEntry.objects.filter(content_type=content_type, object_id=str(user.pk)).order_by("-action_time", "-id")
    )

"""The moderators' actions on accounts, posts and reports (issue 12): the one entry point the admin and the
``moderate`` command share, so both check the same permissions and write the same audit entries.

Each action checks, before anything is written, that ``moderator`` holds its permission
(``accounts.permissions``), that the reason is given, and that the target may be moderated (not the moderator,
not a superuser, not staff unless the moderator is a superuser); otherwise it raises ``ModerationError``. It
then makes the whole change, the SQL side (log-in, sessions) and the Redis side (``timelines.services``:
flags, events, deletions), and writes one audit entry (``accounts.audit``). An action that changes nothing
returns False and writes no entry, so a double click logs once.

- Suspending sets ``is_active`` False (log-in is refused with ``ACCOUNT_SUSPENDED``) and raises the account's
  ``session_epoch``, so every session it has ends at its next request and stays ended after an
  unsuspension; the Redis flag hides everything of the person and closes their open live pages.
- Deleting an account starts the resumable erasure of its Redis data (``timelines.services.erasure``: the
  first pass now, the rest as jobs) and deletes the SQL account.
"""

from __future__ import annotations

import contextlib

from django.db import transaction
from django.db.models import F

from accounts import audit, limits, permissions
from accounts import reports as report_services
from accounts.exceptions import (
    ACCOUNT_SUSPENDED,
    CANNOT_MODERATE_SELF,
    CANNOT_MODERATE_STAFF,
    CANNOT_MODERATE_SUPERUSER,
    NOT_ALLOWED,
    REASON_MISSING,
    REASON_TOO_LONG,
    UNKNOWN_ACCOUNT,
    UNKNOWN_POST,
    ModerationError,
)
from accounts.models import Report, User
from accounts.services import ensure_profile
from timelines import exceptions as timeline_exceptions
from timelines import selectors, validation
from timelines.selectors.moderation import ACCOUNT_STATES, ACTIVE, LIMITED, SUSPENDED, account_states
from timelines.services import erasure, media_removal, moderation, notifications

__all__ = [
    "ACCOUNT_STATES",
    "ACCOUNT_SUSPENDED",
    "ACTIVE",
    "CANNOT_MODERATE_SELF",
    "CANNOT_MODERATE_STAFF",
    "CANNOT_MODERATE_SUPERUSER",
    "LIMITED",
    "MAX_REASON_LENGTH",
    "NOT_ALLOWED",
    "REASON_MISSING",
    "REASON_TOO_LONG",
    "SUSPENDED",
    "UNKNOWN_ACCOUNT",
    "UNKNOWN_POST",
    "ModerationError",
    "account_states",
    "clean_reason",
    "delete_account",
    "limit",
    "remove_post",
    "remove_reported_posts",
    "resolve_report",
    "suspend",
    "unlimit",
    "unsuspend",
]

MAX_REASON_LENGTH = limits.MAX_MODERATION_REASON_LENGTH


def clean_reason(reason: object) -> str:
    """``reason`` as it is stored and shown: stripped (invisible characters too), non-empty, at most
    ``MAX_REASON_LENGTH`` characters. Raises ``ModerationError`` (``REASON_MISSING``, ``REASON_TOO_LONG``)."""
    if not isinstance(reason, str):
        raise ModerationError(REASON_MISSING)
    cleaned = validation.strip_invisible(reason.replace("\r\n", "\n"))
    if not cleaned:
        raise ModerationError(REASON_MISSING)
    if len(cleaned) > MAX_REASON_LENGTH:
        raise ModerationError(REASON_TOO_LONG)
    return cleaned


def _require(moderator: User, permission: str) -> None:
    if not moderator.is_active or not moderator.has_perm(permission):
        raise ModerationError(NOT_ALLOWED)


def _check_target(moderator: User, user: User | None) -> None:
    if user is None or user.pk is None:
        raise ModerationError(UNKNOWN_ACCOUNT)
    if user.pk == moderator.pk:
        raise ModerationError(CANNOT_MODERATE_SELF)
    if user.is_superuser:
        raise ModerationError(CANNOT_MODERATE_SUPERUSER)
    if user.is_staff and not moderator.is_superuser:
        raise ModerationError(CANNOT_MODERATE_STAFF)


def _prepare(*, moderator: User, user: User, reason: str, permission: str) -> tuple[User, str, int]:
    """Check everything an account action needs; return the account as stored now, the clean reason and
    its uid (its social profile is made first if it never had one, as logging in would)."""
    _require(moderator, permission)
    cleaned = clean_reason(reason)
    current = User.objects.filter(pk=user.pk).first() if user is not None and user.pk is not None else None
    _check_target(moderator, current)
    assert current is not None
    try:
        uid = ensure_profile(current)
    except timeline_exceptions.LoginTaken:
        raise ModerationError(UNKNOWN_ACCOUNT) from None
    return current, cleaned, uid


def _sync(user: User, current: User) -> None:
    for name in ("is_active", "session_epoch", "uid"):
        setattr(user, name, getattr(current, name))


def suspend(*, moderator: User, user: User, reason: str) -> bool:
    """Suspend ``user`` for ``reason``; True if they were not suspended (False changes nothing and logs nothing).

    They cannot log in (``ACCOUNT_SUSPENDED``), every session of theirs ends, their open live pages close,
    and everything they posted, reposted, liked or replied disappears for everyone else (nothing is deleted:
    ``unsuspend`` brings it back). Requires ``accounts.suspend_account``. One SQL transaction; the Redis flag
    is set last inside it, so a Redis failure leaves the account as it was."""
    current, cleaned, uid = _prepare(moderator=moderator, user=user, reason=reason, permission=permissions.SUSPEND)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=current.pk)
        sql_changed = locked.is_active
        if sql_changed:
            User.objects.filter(pk=locked.pk).update(is_active=False, session_epoch=F("session_epoch") + 1)
        redis_changed = moderation.suspend_user(uid=uid)
        changed = sql_changed or redis_changed
        if changed:
            audit.record(moderator=moderator, user=locked, message=audit.SUSPENDED.format(reason=cleaned))
    current.refresh_from_db(fields=["is_active", "session_epoch"])
    _sync(user, current)
    return changed


def unsuspend(*, moderator: User, user: User, reason: str) -> bool:
    """Lift ``user``'s suspension for ``reason``; True if they were suspended.

    They can log in again (sessions that a suspension ended stay ended), everything of theirs shows again,
    and their followers' homes are refilled (by jobs past ``POSTS_PER_PASS`` followers). Requires
    ``accounts.suspend_account``."""
    current, cleaned, uid = _prepare(moderator=moderator, user=user, reason=reason, permission=permissions.SUSPEND)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=current.pk)
        sql_changed = not locked.is_active
        if sql_changed:
            User.objects.filter(pk=locked.pk).update(is_active=True)
        redis_changed = moderation.unsuspend_user(uid=uid)
        changed = sql_changed or redis_changed
        if changed:
            audit.record(moderator=moderator, user=locked, message=audit.UNSUSPENDED.format(reason=cleaned))
    current.refresh_from_db(fields=["is_active", "session_epoch"])
    _sync(user, current)
    return changed


def limit(*, moderator: User, user: User, reason: str) -> bool:
    """Limit ``user`` for ``reason``: their posts reach their existing followers only, and they are kept out of
    tag timelines, search, the public streams and "Who to follow". True if they were not limited. Requires
    ``accounts.limit_account``."""
    current, cleaned, uid = _prepare(moderator=moderator, user=user, reason=reason, permission=permissions.LIMIT)
    with transaction.atomic():
        changed = moderation.limit_user(uid=uid)
        if changed:
            audit.record(moderator=moderator, user=current, message=audit.LIMITED.format(reason=cleaned))
    return changed


def unlimit(*, moderator: User, user: User, reason: str) -> bool:
    """Lift ``user``'s limit for ``reason``; True if they were limited. Requires ``accounts.limit_account``."""
    current, cleaned, uid = _prepare(moderator=moderator, user=user, reason=reason, permission=permissions.LIMIT)
    with transaction.atomic():
        changed = moderation.unlimit_user(uid=uid)
        if changed:
            audit.record(moderator=moderator, user=current, message=audit.UNLIMITED.format(reason=cleaned))
    return changed


def remove_post(*, moderator: User, status_id: int, reason: str) -> int:
    """Remove post ``status_id`` for ``reason``: deleted everywhere as its author's delete does, and the author
    is told "Your post was removed by the moderators: <reason>". Returns the author's uid. Raises
    ``ModerationError`` (``UNKNOWN_POST`` for a post that does not exist or is already gone, and the checks
    on its author). Requires ``accounts.remove_post``."""
    _require(moderator, permissions.REMOVE_POST)
    cleaned = clean_reason(reason)
    try:
        status = selectors.get_status(status_id=int(status_id))
    except (timeline_exceptions.StatusNotFound, TypeError, ValueError):
        raise ModerationError(UNKNOWN_POST) from None
    author = User.objects.filter(uid=status.uid).first()
    _check_target(moderator, author)
    assert author is not None
    with transaction.atomic():
        try:
            uid = moderation.remove_status(status_id=status.id, reason=cleaned)
        except timeline_exceptions.StatusNotFound:
            raise ModerationError(UNKNOWN_POST) from None
        audit.record(
            moderator=moderator, user=author, message=audit.REMOVED_POST.format(status_id=status.id, reason=cleaned)
        )
    return uid


def remove_image(*, moderator: User, status_id: int, media_id: int, reason: str) -> int:
    """Remove image ``media_id`` of post ``status_id`` for ``reason``: the post stays, the image is gone from it,
    its history, live pages and the streams, and its file stops loading; one audit entry on the author. Returns
    the author's uid. Raises ``ModerationError`` (``UNKNOWN_POST``, ``media_removal.NO_SUCH_IMAGE``, and the
    checks on the author). Requires ``accounts.remove_post``."""
    _require(moderator, permissions.REMOVE_POST)
    cleaned = clean_reason(reason)
    try:
        status = selectors.get_status(status_id=int(status_id))
    except (timeline_exceptions.StatusNotFound, TypeError, ValueError):
        raise ModerationError(UNKNOWN_POST) from None
    author = User.objects.filter(uid=status.uid).first()
    _check_target(moderator, author)
    assert author is not None
    with transaction.atomic():
        try:
            uid = media_removal.remove_image(status_id=status.id, media_id=int(media_id))
        except timeline_exceptions.StatusNotFound:
            raise ModerationError(UNKNOWN_POST) from None
        except timeline_exceptions.InvalidMedia as error:
            raise ModerationError(error.message) from None
        audit.record(
            moderator=moderator,
            user=author,
            message=audit.REMOVED_IMAGE.format(media_id=media_id, status_id=status.id, reason=cleaned),
        )
    return uid


def remove_reported_posts(*, moderator: User, report: Report, reason: str) -> list[int]:
    """Remove every post of ``report`` that still exists, as ``remove_post`` does (one audit entry and one
    notification each); returns the ids removed. Posts already gone are skipped, so a second call removes
    nothing. Requires ``accounts.remove_post``."""
    _require(moderator, permissions.REMOVE_POST)
    cleaned = clean_reason(reason)
    if report.reported_uid is None:
        _check_target(moderator, report.reported)
    # A remote account's report (issue 22) has no SQL account to check: its posts are removed here like any.
    removed: list[int] = []
    for status_id in report.status_ids:
        try:
            remove_post(moderator=moderator, status_id=int(status_id), reason=cleaned)
        except ModerationError as error:
            if error.message != UNKNOWN_POST:
                raise
        else:
            removed.append(int(status_id))
    return removed


def delete_account(*, moderator: User, user: User, reason: str) -> None:
    """Delete ``user`` for ``reason``: their SQL account now (they cannot log in, their sessions end) and
    everything of theirs in Redis by resumable passes, the first now and the rest as jobs
    (``timelines.services.erasure``; the person is suspended at once, so nothing of theirs shows meanwhile).
    Their login becomes free once the last pass ran. Reports by or about them go with the account. Requires
    ``accounts.delete_account``. Calling it again after a failure finishes what was left."""
    _require(moderator, permissions.DELETE_ACCOUNT)
    cleaned = clean_reason(reason)
    current = User.objects.filter(pk=user.pk).first() if user is not None and user.pk is not None else None
    _check_target(moderator, current)
    assert current is not None
    if current.uid is not None:
        # Erased already: a previous attempt stopped before the SQL side.
        with contextlib.suppress(timeline_exceptions.UnknownUser):
            # The erasure sets the flag without an event; suspending first tells the streams and the open live
            # pages (theirs closes) at once, before the passes delete anything.
            moderation.suspend_user(uid=current.uid)
            erasure.delete_account(uid=current.uid)
    with transaction.atomic():
        audit.record(
            moderator=moderator, user=current, message=audit.DELETED_ACCOUNT.format(reason=cleaned), deletion=True
        )
        current.delete()


def resolve_report(*, moderator: User, report: Report, note: str) -> bool:
    """Resolve ``report`` with ``note`` and tell the reporter ("The moderators resolved your report: <note>");
    True if it was open (False changes nothing, notifies nobody and logs nothing). The audit entry is on the
    reported account ("Resolved report 7: <note>"). ``report`` is updated in place. Requires
    ``accounts.resolve_report``."""
    _require(moderator, permissions.RESOLVE_REPORT)
    cleaned = clean_reason(note)
    with transaction.atomic():
        changed = report_services.resolve_report(report=report, moderator=moderator, note=cleaned)
        # A remote account's report has no SQL account to write the entry on (its audit is the Federation pages').
        if changed and report.reported is not None:
            audit.record(
                moderator=moderator,
                user=report.reported,
                message=audit.RESOLVED_REPORT.format(report_id=report.pk, note=cleaned),
            )
    if changed and report.reporter.uid is not None:
        notifications.notify(
            recipients=[report.reporter.uid],
            kind=notifications.REPORT_RESOLVED,
            actor=notifications.MODERATORS,
            text=cleaned,
        )
    return changed

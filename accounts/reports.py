"""Reports of abuse (issue 11): what a report accepts, sending one (duplicates merge), resolving one, and the
one read the report pages need.

A report is private. It lives in SQL only (``accounts.models.Report``), holds the ids of the reported posts
and never their text, and nothing here writes to Redis or publishes an event: the posts are only read, to
keep the ids of those the reported person wrote. Moderation (issue 12) builds on ``resolve_report``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import exceptions, limits
from accounts.models import Report, User
from timelines import hooks, records, selectors, validation
from timelines.exceptions import StatusNotFound
from timelines.services import activity

# Between the comments of reports merged into one, so a moderator can tell them apart.
COMMENT_SEPARATOR = "\n\n"
ELLIPSIS = "…"
# A racing first report can only lose to one other (the unique open report it then merges into), so two
# passes always suffice; the third is slack for a report resolved between the two.
MERGE_ATTEMPTS = 3


def clean_reason(reason: object) -> str:
    """``reason`` if it is one of ``Report.Reason``'s values; raises ``InvalidReason`` otherwise."""
    if not isinstance(reason, str) or reason not in Report.Reason.values:
        raise exceptions.InvalidReason()
    return reason


def clean_comment(comment: object) -> str:
    """A comment as it will be stored: NFC, newlines unified (a browser sends two characters for each),
    control characters other than newlines dropped, invisible ends stripped; empty is allowed. Raises
    ``CommentTooLong`` past ``MAX_REPORT_COMMENT_LENGTH`` characters."""
    if comment is None:
        return ""
    if not isinstance(comment, str):
        raise exceptions.CommentTooLong()
    comment = unicodedata.normalize("NFC", comment).replace("\r\n", "\n").replace("\r", "\n")
    comment = "".join(ch for ch in comment if ch == "\n" or unicodedata.category(ch) != "Cc")
    comment = validation.strip_invisible(comment)
    if len(comment) > limits.MAX_REPORT_COMMENT_LENGTH:
        raise exceptions.CommentTooLong()
    return comment


def reportable_status_ids(*, reported: User, status_ids: Iterable[object]) -> list[int]:
    """The ids among ``status_ids`` of posts that exist and that ``reported`` wrote, deduplicated, in order.

    A repost is dropped: it is the reposter's act, but its text is someone else's, and the original can be
    reported on its own. Anything that is not a positive id is dropped too. One Redis read per id, so
    callers bound the list (the form offers ``REPORT_FORM_RECENT_POSTS`` + 1)."""
    if reported.uid is None:
        return []
    return _status_ids_of(uid=reported.uid, status_ids=status_ids)


def _status_ids_of(*, uid: int, status_ids: Iterable[object]) -> list[int]:
    kept: list[int] = []
    for raw in dict.fromkeys(status_ids):
        if isinstance(raw, bool) or not isinstance(raw, int | str):
            continue
        try:
            status_id = validation.parse_int(str(raw))
            status = selectors.get_status(status_id=status_id)
        except (ValueError, StatusNotFound):
            continue
        if status.uid == uid and status.repost_of is None and status_id not in kept:
            kept.append(status_id)
    return kept


def report(*, reporter: User, reported: User, reason: str, comment: str = "", status_ids: Sequence[int] = ()) -> Report:
    """Report ``reported`` (and some of their posts) for ``reason``; return the open report that holds it.

    One open report per reporter and reported account: while one is open, a new report merges into it. Its
    status ids gain the new ones (deduplicated, order kept, at most ``MAX_REPORTED_STATUSES``), its reason
    becomes the new reason, and the new comment is appended (the whole still at most
    ``MAX_REPORT_COMMENT_LENGTH`` characters; a comment already there is not repeated). Status ids of posts
    that do not exist or that ``reported`` did not write are dropped (``reportable_status_ids``).

    Raises ``CannotReportSelf``, ``InvalidReason`` or ``CommentTooLong``, before anything is written.
    Racing duplicates merge too: the open report is locked (``select_for_update``; SQLite's IMMEDIATE
    transactions take the write lock at BEGIN), and a first report that loses the race to create it hits
    the partial unique constraint and merges on the next pass.
    """
    if reporter.pk == reported.pk:
        raise exceptions.CannotReportSelf()
    reason = clean_reason(reason)
    comment = clean_comment(comment)
    # Redis is read before the transaction: the SQL write lock is not held across another store's round trips.
    kept = reportable_status_ids(reported=reported, status_ids=status_ids)[: limits.MAX_REPORTED_STATUSES]
    return _store(reporter=reporter, target={"reported": reported}, reason=reason, comment=comment, kept=kept)


def report_remote(
    *,
    reporter: User,
    reported_uid: int,
    reported_acct: str,
    reason: str,
    comment: str = "",
    status_ids: Sequence[int] = (),
) -> Report:
    """Report another server's account (profile ``reported_uid``, ``login@domain``) and some of its posts, as
    ``report`` does a local one: the same checks, merging and limits, one open report per reporter and account.
    Forwarding a copy to its server is the caller's (``federation.services.reports``)."""
    if reporter.uid is not None and reporter.uid == reported_uid:
        raise exceptions.CannotReportSelf()
    reason = clean_reason(reason)
    comment = clean_comment(comment)
    kept = _status_ids_of(uid=reported_uid, status_ids=status_ids)[: limits.MAX_REPORTED_STATUSES]
    target = {"reported_uid": reported_uid, "reported_acct": reported_acct}
    return _store(reporter=reporter, target=target, reason=reason, comment=comment, kept=kept)


def _store(*, reporter: User, target: dict[str, Any], reason: str, comment: str, kept: list[int]) -> Report:
    """Create the open report of ``reporter`` about ``target`` (the fields naming the reported account), or merge
    into the one open already."""
    match = {key: value for key, value in target.items() if key != "reported_acct"}
    for attempt in range(MERGE_ATTEMPTS):
        with transaction.atomic():
            existing = _open_report_for_update(reporter=reporter, match=match)
            if existing is None:
                try:
                    # A savepoint: losing the race must not break a transaction the caller holds.
                    with transaction.atomic():
                        created = Report.objects.create(
                            reporter=reporter, reason=reason, comment=comment, status_ids=kept, **target
                        )
                    # Counted for the dashboard once the report is stored (a counter: no content of it).
                    transaction.on_commit(activity.record_report)
                    return created
                except IntegrityError:
                    if attempt == MERGE_ATTEMPTS - 1:
                        raise
                    continue
            existing.status_ids = _merge_ids(existing.status_ids, kept)
            existing.reason = reason
            existing.comment = _merge_comments(existing.comment, comment)
            existing.save(update_fields=["status_ids", "reason", "comment", "updated"])
            return existing
    raise AssertionError("unreachable: the last attempt returns or raises")


def file_report(
    *,
    reporter: User,
    profile: records.User,
    account: User | None,
    reason: str,
    comment: str = "",
    status_ids: Sequence[int] = (),
    forward: bool = False,
) -> Report:
    """Report the person of ``profile`` (``account``: their SQL account, None for another server's account), as
    the report form and the client API's ``POST /api/v1/reports`` do: ``report`` for a local person,
    ``report_remote`` for a remote one, whose server gets a copy from this server (a Flag, through the
    ``forward_report`` hook) when ``forward`` is asked. The copy carries this report's comment (not the merged
    one) and the posts of the stored report. Raises as ``report`` does."""
    if account is not None:
        return report(reporter=reporter, reported=account, reason=reason, comment=comment, status_ids=status_ids)
    stored = report_remote(
        reporter=reporter,
        reported_uid=profile.id,
        reported_acct=profile.acct,
        reason=reason,
        comment=comment,
        status_ids=status_ids,
    )
    copy = {"uid": profile.id, "status_ids": list(stored.status_ids), "comment": clean_comment(comment)}
    if forward and profile.domain and hooks.forward_report(**copy):
        mark_forwarded(report=stored, domain=profile.domain)
    return stored


def mark_forwarded(*, report: Report, domain: str) -> None:
    """Note on ``report`` that a copy went to ``domain`` (the queue shows it)."""
    Report.objects.filter(pk=report.pk).update(forwarded_to=domain)
    report.forwarded_to = domain


def resolve_report(*, report: Report, moderator: User, note: str = "") -> bool:
    """Mark ``report`` resolved by ``moderator`` with ``note``; True when it changed, False when it was
    already resolved (nothing is written then, so a second click keeps the first resolution).

    ``report`` is updated in place. Notifying the reporter is the caller's (issue 12): do it when this
    returns True, so the reporter hears once."""
    with transaction.atomic():
        current = Report.objects.select_for_update().get(pk=report.pk)
        changed = current.state != Report.State.RESOLVED
        if changed:
            current.state = Report.State.RESOLVED
            current.resolved_at = timezone.now()
            current.resolved_by = moderator
            current.resolution_note = note.strip()
            current.save(update_fields=["state", "resolved_at", "resolved_by", "resolution_note", "updated"])
            transaction.on_commit(lambda: activity.record_report(resolved=True))
    for name in ("state", "resolved_at", "resolved_by_id", "resolution_note", "updated"):
        setattr(report, name, getattr(current, name))
    return changed


def has_reported(*, reporter: User, reported: User | None = None, reported_uid: int | None = None) -> bool:
    """Whether ``reporter`` ever reported ``reported`` (or the remote account ``reported_uid``), open or
    resolved: the thank-you page's guard."""
    if reported is None:
        return Report.objects.filter(reporter=reporter, reported_uid=reported_uid).exists()
    return Report.objects.filter(reporter=reporter, reported=reported).exists()


def _open_report_for_update(*, reporter: User, match: dict[str, Any]) -> Report | None:
    return (
        Report.objects.select_for_update()
        .filter(reporter=reporter, state=Report.State.OPEN, **match)
        .order_by()
        .first()
    )


def _merge_ids(existing: Sequence[int], new: Sequence[int]) -> list[int]:
    return list(dict.fromkeys([*existing, *new]))[: limits.MAX_REPORTED_STATUSES]


def _merge_comments(existing: str, new: str) -> str:
    """``existing`` with ``new`` appended as its own paragraph, cut with an ellipsis to fit the limit. What
    is already there is never cut: the first words of a report are the moderator's first evidence."""
    if not new or new in existing.split(COMMENT_SEPARATOR):
        return existing
    if not existing:
        return new
    room = limits.MAX_REPORT_COMMENT_LENGTH - len(existing) - len(COMMENT_SEPARATOR)
    if room < len(new) and room < 2:
        return existing
    if len(new) > room:
        new = new[: room - len(ELLIPSIS)] + ELLIPSIS
    return f"{existing}{COMMENT_SEPARATOR}{new}"

"""``POST /api/v1/reports``: report an account (and some of its posts) to this server's moderators, as the
site's report form does (``accounts.reports.file_report``: one open report per reporter and account, merged,
the same limits and the ``reports`` rate limit). Mastodon's categories map to the form's reasons: ``spam`` to
spam, ``legal`` to illegal content, ``violation`` to abuse or harassment, ``other`` (the default) to other.
Only posts of that account the reporter may see are kept, at most ``MAX_REPORTED_STATUSES``; ``forward=true``
sends a copy to another server's account's server, as the form's "Forward to <domain>". ``rule_ids`` are
accepted and ignored: this server has no rules list."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts import exceptions as account_exceptions
from accounts import limits as account_limits
from accounts import reports
from accounts.models import Report, User
from api.entities.accounts import account
from api.entities.common import iso
from api.http import ApiError, bool_param, endpoint, list_param, not_found, parse_id, text_param
from api.limits import rate_limited
from timelines import exceptions, records, selectors, validation

CATEGORIES = {
    "spam": Report.Reason.SPAM,
    "legal": Report.Reason.ILLEGAL,
    "violation": Report.Reason.ABUSE,
    "other": Report.Reason.OTHER,
}
CATEGORY_OF = {reason: category for category, reason in CATEGORIES.items()}


def _target(raw: str | None) -> tuple[records.User, User | None]:
    if raw in (None, ""):
        raise ApiError(422, "Validation failed: account_id can't be blank")
    try:
        profile = selectors.get_user(uid=parse_id(raw))
    except exceptions.UnknownUser:
        raise not_found() from None
    if profile.suspended:
        raise not_found()
    if profile.domain:
        return profile, None
    local = User.objects.filter(uid=profile.id).first()
    if local is None:
        raise not_found()
    return profile, local


def _visible_posts(request: HttpRequest, profile: records.User) -> list[int]:
    """The ``status_ids[]`` that are posts of ``profile`` the reporter may see (others are left out, as the form
    offers only those); at most ``MAX_REPORTED_STATUSES`` are read."""
    kept = []
    for raw in list_param(request, "status_ids")[: account_limits.MAX_REPORTED_STATUSES]:
        try:
            status_id = validation.parse_int(raw)
            status = selectors.get_status(status_id=status_id, viewer_uid=request.viewer_uid)  # type: ignore[attr-defined]
        except (ValueError, exceptions.StatusNotFound):
            continue
        if status.uid == profile.id and status.repost_of is None:
            kept.append(status_id)
    return kept


def report_entity(request: HttpRequest, report: Report, profile: records.User) -> dict[str, Any]:
    return {
        "id": str(report.pk),
        "action_taken": report.state == Report.State.RESOLVED,
        "action_taken_at": iso(report.resolved_at.timestamp()) if report.resolved_at else None,
        "category": CATEGORY_OF.get(report.reason, "other"),
        "comment": report.comment,
        "forwarded": bool(report.forwarded_to),
        "created_at": iso(report.created.timestamp()),
        "status_ids": [str(status_id) for status_id in report.status_ids] or None,
        "rule_ids": None,
        "target_account": account(request, profile),
    }


def _reporter(request: HttpRequest) -> User:
    reporter = request.api_token.user  # type: ignore[attr-defined]
    if reporter is None:
        raise ApiError(401, "The access token is invalid")
    return reporter


@endpoint("POST", scopes={"POST": "write:reports"})
def create(request: HttpRequest) -> Any:
    reporter = _reporter(request)
    profile, local = _target(text_param(request, "account_id"))
    category = text_param(request, "category") or "other"
    if category not in CATEGORIES:
        raise ApiError(422, "Validation failed: category must be spam, legal, violation or other")
    with rate_limited(request, "reports"):
        try:
            report = reports.file_report(
                reporter=reporter,
                profile=profile,
                account=local,
                reason=CATEGORIES[category],
                comment=text_param(request, "comment") or "",
                status_ids=_visible_posts(request, profile),
                forward=bool_param(request, "forward"),
            )
        except account_exceptions.CannotReportSelf as error:
            raise ApiError(422, f"Validation failed: {error.message}") from None
        except (account_exceptions.InvalidReason, account_exceptions.CommentTooLong) as error:
            raise ApiError(422, f"Validation failed: {error.message}") from None
    return report_entity(request, report, profile)

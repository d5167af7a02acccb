"""Domain errors of reports. Views map each to a form error or a 4xx; messages are constants so tests and
views can refer to them. They are ``TimelineError``s, so a caller of the Python API catches one base."""

from __future__ import annotations

from accounts import limits
from timelines.exceptions import TimelineError

REASON_REQUIRED = "Choose a reason: Spam, Abuse or harassment, Illegal content or Other."
COMMENT_TOO_LONG = f"Comments are at most {limits.MAX_REPORT_COMMENT_LENGTH:,} characters."
CANNOT_REPORT_SELF = "You cannot report yourself."
POST_NOT_OFFERED = "Only posts this person wrote, and that you can see, can go with a report."


class ReportError(TimelineError):
    """Base of every error the report services raise on purpose."""

    default_message = "The report could not be sent."


class InvalidReason(ReportError):
    default_message = REASON_REQUIRED


class CommentTooLong(ReportError):
    default_message = COMMENT_TOO_LONG


class CannotReportSelf(ReportError):
    default_message = CANNOT_REPORT_SELF


REASON_MISSING = "Give a reason: it goes into the audit log."
REASON_TOO_LONG = f"Reasons are at most {limits.MAX_MODERATION_REASON_LENGTH} characters."
UNKNOWN_ACCOUNT = "No such account."
UNKNOWN_POST = "No such post."
CANNOT_MODERATE_SELF = "You cannot moderate your own account."
CANNOT_MODERATE_SUPERUSER = "Superusers cannot be moderated."
CANNOT_MODERATE_STAFF = "Only a superuser can moderate a staff account."
NOT_ALLOWED = "You do not have permission to do that."
# What the log-in page says to a suspended person who typed the right password (Django's "inactive" error).
ACCOUNT_SUSPENDED = "This account is suspended"


class ModerationError(TimelineError):
    """Raised by ``accounts.moderation`` before anything is written: an empty reason, an unknown account or
    post, acting on yourself, a superuser or (unless a superuser) staff, or a moderator without the
    permission. ``message`` is one of the constants above, fit to show to the moderator."""

    default_message = "The moderation action could not be done."

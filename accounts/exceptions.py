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

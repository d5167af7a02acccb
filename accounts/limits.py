"""Limits of the accounts app's own data (passwords, reports). The social graph's limits are ``timelines.limits``."""

from __future__ import annotations

# A report's comment, also after a duplicate report appended its own (issue 11: "up to 1,000 characters").
MAX_REPORT_COMMENT_LENGTH = 1000
# Status ids one report keeps: duplicates merge into one open report, so its list must not grow without bound.
MAX_REPORTED_STATUSES = 100
# How many of the reported person's latest posts the report form offers as checkboxes.
REPORT_FORM_RECENT_POSTS = 20
# A moderator's reason or resolution note, written into the audit log and shown to the person concerned.
MAX_MODERATION_REASON_LENGTH = 500
# What a password field takes: long passphrases fit, a megabyte does not reach the hasher or the validators.
MAX_PASSWORD_LENGTH = 1024
# An e-mail address (RFC 5321's path limit, as Django's models use).
MAX_EMAIL_LENGTH = 254

"""Accounts live in SQL with Django auth; the social profile lives in Redis under ``User.uid``. Reports of
abuse live here too: they are private, so they never go to Redis.

Passwords, e-mail addresses and sessions never reach Redis (DESIGN.md). No model here mirrors Redis data:
``uid`` is only the link from a login to ``user:{uid}``, and a ``Report`` keeps the ids of the posts it is
about, never their text.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Length, Lower
from django.db.models.lookups import LessThanOrEqual
from django.utils.crypto import salted_hmac

from accounts import limits


class User(AbstractUser):
    uid = models.PositiveBigIntegerField(
        "social profile id",
        unique=True,
        null=True,
        blank=True,
        editable=False,
        help_text="Id of this account's profile in Redis (user:{uid}).",
    )
    session_epoch = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="Raised on every suspension: every session opened before it ends, and stays ended.",
    )
    is_demo = models.BooleanField(
        "demo account",
        default=False,
        editable=False,
        help_text="Made by manage.py seed_demo with the published demo password (accounts.demo).",
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        # The moderators' actions (issue 12), granted to the "Moderators" group (accounts.permissions).
        permissions = [
            ("suspend_account", "Can suspend and unsuspend accounts"),
            ("limit_account", "Can limit and unlimit accounts"),
            ("remove_post", "Can remove posts"),
            ("delete_account", "Can delete accounts"),
            ("resolve_report", "Can resolve reports"),
        ]
        constraints = [
            # Logins are unique case-insensitively, as in Redis (users: holds lowercased logins).
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]

    def get_session_auth_hash(self) -> str:
        """Django's session hash (which ends sessions when the password changes), also bound to
        ``session_epoch``: a suspension raises it, so every session of the account ends at its next request,
        and unsuspending does not bring them back. Epoch 0 keeps Django's own hash, so no session ends when
        this is deployed."""
        if not self.session_epoch:
            return super().get_session_auth_hash()
        return self._epoch_hash(settings.SECRET_KEY)

    def get_session_auth_fallback_hash(self) -> Iterator[str]:
        """The same hash under each of ``SECRET_KEY_FALLBACKS``: a rotated key must not revive a session."""
        if not self.session_epoch:
            yield from super().get_session_auth_fallback_hash()
            return
        for secret in settings.SECRET_KEY_FALLBACKS:
            yield self._epoch_hash(secret)

    def _epoch_hash(self, secret: str) -> str:
        key_salt = "accounts.models.User.get_session_auth_hash"
        return salted_hmac(
            key_salt, f"{self.password}:{self.session_epoch}", secret=secret, algorithm="sha256"
        ).hexdigest()


class Report(models.Model):
    """One person's report of another account and some of its posts (issue 11), worked by the moderators.

    Written only by ``accounts.reports``: a reporter has at most one open report per reported account, and
    a second report while it is open merges into it (a partial unique constraint keeps that true under races).
    """

    class Reason(models.TextChoices):
        SPAM = "spam", "Spam"
        ABUSE = "abuse", "Abuse or harassment"
        ILLEGAL = "illegal", "Illegal content"
        OTHER = "other", "Other"

    class State(models.TextChoices):
        OPEN = "open", "Open"
        RESOLVED = "resolved", "Resolved"

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    # Not indexed on its own: accounts_report_reported_idx starts with it. Empty for another server's account.
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_received",
        db_index=False,
        null=True,
        blank=True,
    )
    # Another server's account (issue 22), which has no SQL row here: its profile's uid in Redis and its address.
    reported_uid = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The reported remote account's profile (user:{uid}); empty for a local one."
    )
    reported_acct = models.CharField(
        "reported remote account", max_length=512, blank=True, help_text="login@domain of a reported remote account."
    )
    forwarded_to = models.CharField(
        max_length=255, blank=True, help_text="The server a copy of the report (a Flag) was sent to, if any."
    )
    status_ids = models.JSONField(
        "reported posts",
        default=list,
        blank=True,
        help_text="Ids of the reported posts (status:{id} in Redis), in the order they were reported.",
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    comment = models.TextField(max_length=limits.MAX_REPORT_COMMENT_LENGTH, blank=True)
    state = models.CharField(max_length=16, choices=State.choices, default=State.OPEN)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports_resolved",
    )
    resolution_note = models.TextField(blank=True)

    class Meta:
        # "open" sorts before "resolved": the queue shows open reports first, newest first.
        ordering = ["state", "-created", "-id"]
        indexes = [
            models.Index(fields=["state", "-created"], name="accounts_report_state_idx"),
            models.Index(fields=["reason", "state"], name="accounts_report_reason_idx"),
            models.Index(fields=["reported", "state"], name="accounts_report_reported_idx"),
            models.Index(fields=["reported_uid", "state"], name="accounts_report_remote_idx"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "reported"],
                condition=models.Q(state="open"),
                name="accounts_report_one_open_per_pair",
            ),
            models.UniqueConstraint(
                fields=["reporter", "reported_uid"],
                condition=models.Q(state="open", reported_uid__isnull=False),
                name="accounts_report_one_open_per_remote",
            ),
            # Exactly one target: a local account, or a remote one.
            models.CheckConstraint(
                condition=models.Q(reported__isnull=False, reported_uid__isnull=True)
                | models.Q(reported__isnull=True, reported_uid__isnull=False),
                name="accounts_report_one_target",
            ),
            models.CheckConstraint(condition=~models.Q(reporter=models.F("reported")), name="accounts_report_not_self"),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("comment"), limits.MAX_REPORT_COMMENT_LENGTH),
                name="accounts_report_comment_length",
            ),
        ]

    def __str__(self) -> str:
        return f"Report #{self.pk} ({self.get_reason_display()}, {self.get_state_display()})"

    @property
    def reported_name(self) -> str:
        """The reported account as the queue shows it: its username here, ``@login@domain`` for a remote one."""
        return f"@{self.reported_acct}" if self.reported_uid is not None else str(self.reported)

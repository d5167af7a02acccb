"""Accounts live in SQL with Django auth; the social profile lives in Redis under ``User.uid``.

Passwords, e-mail addresses and sessions never reach Redis (DESIGN.md). No model here mirrors Redis data:
``uid`` is only the link from a login to ``user:{uid}``.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower


class User(AbstractUser):
    uid = models.PositiveBigIntegerField(
        "social profile id",
        unique=True,
        null=True,
        blank=True,
        editable=False,
        help_text="Id of this account's profile in Redis (user:{uid}).",
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            # Logins are unique case-insensitively, as in Redis (users: holds lowercased logins).
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
        ]

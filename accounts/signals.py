"""Log-in makes sure the account has its social profile (see ``accounts.middleware``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from accounts.services import ensure_profile_if_reachable


@receiver(user_logged_in)
def make_profile_on_log_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    if getattr(user, "uid", 0) is None:
        ensure_profile_if_reachable(user)

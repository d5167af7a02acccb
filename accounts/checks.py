"""System checks of the accounts app: ``check --deploy`` refuses a site still carrying the demo accounts."""

from __future__ import annotations

from typing import Any

from django.core import checks

from accounts import demo

DEMO_ACCOUNTS_ID = "accounts.E001"


@checks.register(checks.Tags.security, deploy=True)
def demo_accounts_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """An error while accounts made by ``seed_demo`` still log in with the published demo password."""
    logins = demo.accounts_with_demo_password()
    if not logins:
        return []
    return [
        checks.Error(
            f"{len(logins)} demo account(s) log in with the published password {demo.DEMO_PASSWORD!r}.",
            hint="Delete them (Django admin, Accounts) or change their passwords before going to production.",
            id=DEMO_ACCOUNTS_ID,
        )
    ]

"""System checks of federation: ``check --deploy`` refuses ``SOCIALSITE_FEDERATION_INSECURE``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

INSECURE_ID = "federation.E001"


@checks.register(checks.Tags.security, deploy=True)
def insecure_federation_check(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    if not getattr(settings, "SOCIALSITE_FEDERATION_INSECURE", False):
        return []
    return [
        checks.Error(
            "SOCIALSITE_FEDERATION_INSECURE is on: other servers are reached over plain http and on private and "
            "loopback addresses.",
            hint="It is for tests and local trials only: unset it before going to production.",
            id=INSECURE_ID,
        )
    ]

from __future__ import annotations

from django.apps import AppConfig


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = "Federation"

    def ready(self) -> None:
        from federation import checks, hooks  # noqa: F401  (checks register themselves)

        hooks.register_all()

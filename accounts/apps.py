from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts import checks, signals  # noqa: F401  (registers the deploy check, connects the log-in receiver)

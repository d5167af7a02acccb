"""``manage.py setup_moderators [LOGIN ...]``: set the "Moderators" group back to its permissions
(``accounts.permissions``) and put the named accounts in it, as staff. Idempotent."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts import permissions
from accounts.models import User


class Command(BaseCommand):
    help = 'Create or repair the "Moderators" group and add accounts to it (they become staff).'

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("logins", nargs="*", metavar="LOGIN", help="Accounts to make moderators.")

    def handle(self, *args: Any, **options: Any) -> None:
        users = []
        for login in options["logins"]:
            user = User.objects.filter(username__iexact=login.lstrip("@")).first()
            if user is None:
                raise CommandError(f"No account with the login {login!r}.")
            users.append(user)
        group = permissions.setup_moderators_group()
        self.stdout.write(f'The "{group.name}" group has {group.permissions.count()} permissions.')
        for user in users:
            changed = permissions.make_moderator(user=user)
            self.stdout.write(f"@{user.username} {'is now' if changed else 'was already'} a moderator.")

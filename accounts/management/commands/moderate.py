"""``manage.py moderate``: the admin's moderation actions for scripts and for an admin without a browser.

    manage.py moderate suspend LOGIN --reason TEXT [--as LOGIN]
    manage.py moderate unsuspend|limit|unlimit LOGIN --reason TEXT [--as LOGIN]
    manage.py moderate remove-post STATUS_ID --reason TEXT [--as LOGIN] [--yes]
    manage.py moderate delete-account LOGIN --reason TEXT [--as LOGIN] [--yes]

Each runs the same service as the admin (``accounts.moderation``), with the same permission checks and audit
entries, as the account named by ``--as`` (by default the only active superuser). The destructive ones,
``remove-post`` and ``delete-account``, only say what they would do unless given ``--yes`` (as Zulip's
``deactivate_user``). Every refusal is a ``CommandError`` with the reason, so the command exits non-zero.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts import moderation
from accounts.models import User
from timelines import exceptions as timeline_exceptions
from timelines import selectors

ACTIONS = ("suspend", "unsuspend", "limit", "unlimit", "remove-post", "delete-account")
DESTRUCTIVE = ("remove-post", "delete-account")

UNKNOWN_LOGIN = "No account with the login {login!r}."
UNKNOWN_POST = "No post with the id {status_id!r}."
NO_ACTOR = "Say who acts with --as LOGIN (a superuser or a moderator): there is no single active superuser."
DRY_RUN = "Nothing was done: run again with --yes to do it."

_SERVICES = {
    "suspend": (moderation.suspend, "Suspended @{login}.", "@{login} was already suspended: nothing changed."),
    "unsuspend": (moderation.unsuspend, "Unsuspended @{login}.", "@{login} was not suspended: nothing changed."),
    "limit": (moderation.limit, "Limited @{login}.", "@{login} was already limited: nothing changed."),
    "unlimit": (moderation.unlimit, "Unlimited @{login}.", "@{login} was not limited: nothing changed."),
}


class Command(BaseCommand):
    help = "Suspend, unsuspend, limit or unlimit an account, remove a post or delete an account, with a reason."

    def add_arguments(self, parser: CommandParser) -> None:
        common = ArgumentParser(add_help=False)
        common.add_argument("--reason", required=True, help="Why: written into the audit log (required).")
        common.add_argument(
            "--as", dest="actor", metavar="LOGIN", help="The moderator who acts (default: the only superuser)."
        )
        actions = parser.add_subparsers(dest="action", required=True, metavar="{" + ",".join(ACTIONS) + "}")
        for name in ("suspend", "unsuspend", "limit", "unlimit"):
            sub = actions.add_parser(name, parents=[common], help=f"{name.capitalize()} an account.")
            sub.add_argument("login")
        sub = actions.add_parser("remove-post", parents=[common], help="Remove a post (a dry run without --yes).")
        sub.add_argument("status_id", type=int)
        sub.add_argument("--yes", action="store_true", help="Really remove it.")
        sub = actions.add_parser(
            "delete-account", parents=[common], help="Delete an account (a dry run without --yes)."
        )
        sub.add_argument("login")
        sub.add_argument("--yes", action="store_true", help="Really delete it.")

    def handle(self, *args: Any, **options: Any) -> None:
        action = options["action"]
        actor = _actor(options.get("actor"))
        try:
            reason = moderation.clean_reason(options["reason"])
            if action == "remove-post":
                self._remove_post(actor, options["status_id"], reason, yes=options["yes"])
            elif action == "delete-account":
                self._delete_account(actor, _account(options["login"]), reason, yes=options["yes"])
            else:
                service, done, unchanged = _SERVICES[action]
                user = _account(options["login"])
                changed = service(moderator=actor, user=user, reason=reason)
                self.stdout.write((done if changed else unchanged).format(login=user.username))
        except moderation.ModerationError as error:
            raise CommandError(error.message) from None

    def _remove_post(self, actor: User, status_id: int, reason: str, *, yes: bool) -> None:
        try:
            status = selectors.get_status(status_id=status_id)
        except timeline_exceptions.StatusNotFound:
            raise CommandError(UNKNOWN_POST.format(status_id=status_id)) from None
        if not yes:
            self.stdout.write(f"Would remove post {status.id} by @{status.login}: {status.message[:80]!r}")
            self.stdout.write(f"and tell @{status.login}: Your post was removed by the moderators: {reason}")
            self.stdout.write(DRY_RUN)
            return
        moderation.remove_post(moderator=actor, status_id=status.id, reason=reason)
        self.stdout.write(f"Removed post {status.id} by @{status.login}.")

    def _delete_account(self, actor: User, user: User, reason: str, *, yes: bool) -> None:
        if not yes:
            posts = followers = 0
            if user.uid is not None:
                try:
                    profile = selectors.get_user(uid=user.uid)
                    posts, followers = profile.posts, profile.followers
                except timeline_exceptions.UnknownUser:
                    pass
            self.stdout.write(
                f"Would delete @{user.username} (uid {user.uid}): the SQL account now, and {posts} posts, "
                f"{followers} followers and everything else of theirs in Redis by jobs."
            )
            self.stdout.write(DRY_RUN)
            return
        moderation.delete_account(moderator=actor, user=user, reason=reason)
        self.stdout.write(f"Deleted @{user.username}; the rest of their Redis data is deleted by jobs.")


def _account(login: str) -> User:
    user = User.objects.filter(username__iexact=login.lstrip("@")).first()
    if user is None:
        raise CommandError(UNKNOWN_LOGIN.format(login=login))
    return user


def _actor(login: str | None) -> User:
    if login:
        return _account(login)
    superusers = list(User.objects.filter(is_superuser=True, is_active=True)[:2])
    if len(superusers) != 1:
        raise CommandError(NO_ACTOR)
    return superusers[0]

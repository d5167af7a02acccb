"""``manage.py rebuild_home_timeline <login> | --all``: rebuild home timelines from the followed profiles.

For each user, drops entries that do not belong (deleted statuses, people no longer followed) and refills the
home timeline with the newest ``HOME_TIMELINE_SIZE`` statuses of the user and everyone they follow, in batches
of ``REFILL_USERS_STEP`` followees (``services.rebuild_timeline``), with a progress bar. ``--lists`` rebuilds the
timelines of the lists those users own as well. Timelines are derived data, so this never loses anything a
user wrote; it runs safely while the site does. ``audit_timelines`` is the command that only looks.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.template.defaultfilters import pluralize
from tqdm import tqdm

from timelines import exceptions, limits, selectors, services


class Command(BaseCommand):
    help = "Rebuild the home timeline of one user (by login) or of everyone (--all) from the profiles they follow."

    def add_arguments(self, parser: Any) -> None:
        target = parser.add_mutually_exclusive_group(required=True)
        target.add_argument("login", nargs="?", help="the user whose home timeline to rebuild")
        target.add_argument("--all", action="store_true", help="rebuild every user's home timeline")
        parser.add_argument("--lists", action="store_true", help="also rebuild the timelines of their lists")

    def handle(self, *args: Any, **options: Any) -> None:
        progress = options["verbosity"] > 0
        if options["all"]:
            users = selectors.get_all_users()
        else:
            try:
                users = [selectors.get_user_by_login(login=options["login"])]
            except exceptions.UnknownUser:
                raise CommandError(f"No user with the login {options['login']!r}.") from None

        removed = rebuilt = 0
        for user in tqdm(users, desc="users", unit="user", disable=not progress or len(users) == 1):
            with tqdm(
                total=user.following + 1,
                desc=f"@{user.login}",
                unit="profile",
                leave=len(users) == 1,
                disable=not progress or len(users) > 1,
            ) as bar:
                result = services.rebuild_timeline(uid=user.id, on_step=bar.update)
            removed += result.removed
            rebuilt += 1
            if len(users) == 1:
                self.stdout.write(
                    f"@{user.login}: {result.before} statuses before, {result.after} after "
                    f"(at most {limits.HOME_TIMELINE_SIZE}); {result.removed} removed as deleted or unfollowed."
                )
            if options["lists"]:
                for user_list in selectors.get_user_lists(uid=user.id):
                    try:
                        result = services.rebuild_timeline(list_id=user_list.id)
                    except exceptions.UnknownList:
                        continue  # deleted meanwhile
                    removed += result.removed
                    rebuilt += 1
        summary = f"Rebuilt {rebuilt} timeline{pluralize(rebuilt)}; "
        summary += f"removed {removed} stale entr{pluralize(removed, 'y,ies')}."
        self.stdout.write(self.style.SUCCESS(summary))

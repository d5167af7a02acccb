"""``python -m bench.chaos.people --users N --followers F``: the chaos run's accounts, made in the site's own
database and Redis (run with the ``serve`` process's environment), printed as JSON: ``{"people": [{"uid",
"login", "token"}, ...]}``.

The database is migrated first (the run's ``serve`` has a fresh var directory). Every account is made by the
site's own sign-up service and gets a token of an app registered the way ``POST /api/v1/apps`` registers one.
The first account also gets ``F`` followers, written in bulk (``bench.graph``), so that each of its posts is
delivered past the first ``POSTS_PER_PASS`` followers by RQ jobs: the worker has real work to lose when it is
killed.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys


def make(users: int, followers: int) -> list[dict[str, object]]:
    from django.core.management import call_command

    from accounts.services import sign_up
    from api import oauth
    from api.models import Application
    from bench.graph import bulk_follow, bulk_users
    from bench.harness import Context

    call_command("migrate", verbosity=0)
    app = Application.objects.create(
        name="chaos",
        redirect_uris="urn:ietf:wg:oauth:2.0:oob",
        scopes="read write follow",
        client_id=secrets.token_urlsafe(24),
        client_secret_digest=oauth.digest(secrets.token_urlsafe(32)),
    )
    people = []
    for i in range(users):
        user = sign_up(login=f"chaos{i}", name=f"Chaos {i}", password=None)
        _, token = oauth.issue_token(application=app, user=user, scopes=("read", "write", "follow"))
        people.append({"uid": user.uid, "login": user.username, "token": token})
    if followers and people:
        ctx = Context(quick=True)
        fans = bulk_users(ctx, followers, prefix="fan")
        bulk_follow(ctx, [(fan, int(people[0]["uid"])) for fan in fans])  # type: ignore[call-overload]
    return people


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos.people", description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, required=True)
    parser.add_argument("--followers", type=int, default=0, help="bulk followers of the first account")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
    import django

    django.setup()
    print(json.dumps({"people": make(args.users, args.followers)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

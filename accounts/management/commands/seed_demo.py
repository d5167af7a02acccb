"""``manage.py seed_demo``: fill a small, living network so a newcomer has something to look at.

Creates accounts (SQL) with their profiles (Redis), a follow graph where everyone follows the first user and
a handful of others, and posts that mention people and carry locations now and then. Runs through the same
services as the site, so fan-out, counters and timelines are exactly what real use produces. Existing logins
are reused, so running it twice adds posts without failing.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand
from tqdm import tqdm

from accounts.demo import DEMO_PASSWORD, FIRST_NAMES, demo_login
from accounts.models import User
from accounts.services import sign_up
from timelines import exceptions, selectors, services

TOPICS = [
    "redis",
    "django",
    "python",
    "coffee",
    "music",
    "climbing",
    "gardening",
    "chess",
    "cycling",
    "bread",
    "rust",
    "jazz",
    "photography",
    "astronomy",
    "tea",
]
TEMPLATES = [
    "Just finished reading about {topic}. Highly recommended.",
    "Anyone else into {topic}? Looking for tips.",
    "Hot take: {topic} is underrated.",
    "Spent the whole afternoon on {topic} and loved it.",
    "@{friend} you were right about {topic}!",
    "Day 3 of learning {topic}. Slowly getting there.",
    "Sorted sets make {topic} timelines easy. Thanks @{friend}",
    "Coffee, {topic}, repeat.",
]
CITIES = ["51.5072,-0.1276", "48.8566,2.3522", "40.7128,-74.006", "35.6762,139.6503", "-33.8688,151.2093"]


class Command(BaseCommand):
    help = "Create demo users, follows and posts (through the real services) so the site looks alive."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--users", type=int, default=30)
        parser.add_argument("--posts", type=int, default=300)
        parser.add_argument("--seed", type=int, default=8, help="random seed, for a repeatable network")
        parser.add_argument("--if-empty", action="store_true", help="do nothing if any account exists already")
        parser.add_argument(
            "--password",
            default=DEMO_PASSWORD,
            help=f"password of every demo account, so you can log in as any of them (default: {DEMO_PASSWORD})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and User.objects.exists():
            return
        rng = random.Random(options["seed"])
        count = max(2, options["users"])
        logins = [demo_login(i) for i in range(count)]
        progress = options["verbosity"] > 0

        uids: list[int] = []
        for i, login in enumerate(tqdm(logins, desc="users", disable=not progress)):
            uids.append(self._user(login, FIRST_NAMES[i % len(FIRST_NAMES)]))
        User.objects.filter(username__in=logins).update(password=make_password(options["password"]), is_demo=True)

        follows = [(uid, uids[0]) for uid in uids[1:]]
        for uid in uids:
            for other in rng.sample(uids, k=min(len(uids) - 1, rng.randint(3, 10))):
                if other != uid:
                    follows.append((uid, other))
        for uid, other in tqdm(follows, desc="follows", disable=not progress):
            services.follow_user(uid=uid, other_uid=other)

        for _ in tqdm(range(options["posts"]), desc="posts", disable=not progress):
            uid = rng.choice(uids[:5] * 3 + uids)  # a few loud accounts, like any network
            friend = logins[rng.randrange(len(logins))]
            message = rng.choice(TEMPLATES).format(topic=rng.choice(TOPICS), friend=friend)
            extra = {"location": rng.choice(CITIES)} if rng.random() < 0.2 else {}
            services.post_status(uid=uid, message=message, **extra)

        first = selectors.get_user(uid=uids[0])
        self.stdout.write(
            self.style.SUCCESS(
                f"Seeded {len(uids)} users, {len(follows)} follows, {options['posts']} posts. "
                f"Log in as @{first.login} (or any demo user) with password {options['password']!r}."
            )
        )

    def _user(self, login: str, name: str) -> int:
        existing = User.objects.filter(username__iexact=login).first()
        if existing is not None and existing.uid is not None:
            return existing.uid
        try:
            return int(sign_up(login=login, name=f"{name} {login[:1].upper()}.", password=None).uid)
        except exceptions.LoginTaken:
            return selectors.get_user_by_login(login=login).id

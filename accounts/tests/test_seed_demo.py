"""``manage.py seed_demo`` fills a small living network through the real services."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from accounts.models import User
from timelines import selectors

pytestmark = pytest.mark.django_db


def test_seed_demo_creates_users_follows_and_posts_and_can_run_twice():
    call_command("seed_demo", users=8, posts=40, verbosity=0)
    assert User.objects.count() == 8
    first = selectors.get_user_by_login(login="ada")
    assert first.followers == 7
    total_posts = sum(selectors.get_user(uid=user.uid).posts for user in User.objects.all())
    assert total_posts == 40
    follower = User.objects.exclude(username="ada").first()
    assert selectors.get_status_messages(uid=follower.uid), "a follower's home shows posts"
    assert authenticate(username="ada", password="socialsite-demo") is not None

    call_command("seed_demo", users=8, posts=10, verbosity=0)
    assert User.objects.count() == 8
    assert sum(selectors.get_user(uid=user.uid).posts for user in User.objects.all()) == 50

"""The demo accounts' published password cannot reach production unnoticed: ``check --deploy`` fails and
``serve`` warns on every start while a demo account still logs in with it."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from accounts import checks, demo
from accounts.models import User
from socialsite.management.commands import serve

pytestmark = pytest.mark.django_db


def test_check_deploy_fails_and_serve_warns_while_demo_accounts_keep_the_published_password():
    call_command("check", "--deploy", fail_level="ERROR")  # a site without demo accounts passes
    assert serve.deploy_warnings() == []

    call_command("seed_demo", users=3, posts=0, verbosity=0)
    with pytest.raises(SystemCheckError, match=checks.DEMO_ACCOUNTS_ID):
        call_command("check", "--deploy", fail_level="ERROR")
    assert [checks.DEMO_ACCOUNTS_ID in line and demo.DEMO_PASSWORD in line for line in serve.deploy_warnings()] == [
        True
    ]

    accounts = list(User.objects.filter(is_demo=True).order_by("username"))
    for account in accounts[:-1]:
        account.set_password("a long private passphrase")
        account.save()
    assert demo.accounts_with_demo_password() == [accounts[-1].username]
    with pytest.raises(SystemCheckError, match="1 demo account"):
        call_command("check", "--deploy", fail_level="ERROR")

    accounts[-1].delete()
    call_command("check", "--deploy", fail_level="ERROR")
    assert serve.deploy_warnings() == []


def test_a_demo_seeded_with_its_own_password_is_not_flagged():
    call_command("seed_demo", users=2, posts=0, password="not the published one", verbosity=0)
    assert User.objects.filter(is_demo=True).count() == 2
    assert demo.accounts_with_demo_password() == []

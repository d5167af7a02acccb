"""``manage.py moderate``: the same actions as the admin, with the same audit entries; the destructive ones are
dry runs without ``--yes``; every refusal is a clear error and a non-zero exit."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.core.management import CommandError, call_command

from accounts import moderation
from accounts.management.commands import moderate
from accounts.models import User
from accounts.tests.conftest import PASSWORD, home_timeline_of
from accounts.tests.test_moderation import client_can_log_in, messages_of
from socialsite import testing
from timelines import selectors, services
from timelines.tests.helpers import run_worker_burst

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command("moderate", *args, stdout=out)
    return out.getvalue()


def test_suspend_and_unsuspend_from_the_command_line_write_the_admins_audit_entries(mod, bob):
    assert run("suspend", "bob", "--reason", "spam", "--as", "mod").strip() == "Suspended @bob."
    assert not client_can_log_in(bob)
    assert run("suspend", "@Bob", "--reason", "spam", "--as", "mod").strip().endswith("nothing changed.")
    assert run("unsuspend", "bob", "--reason", "appeal", "--as", "mod").strip() == "Unsuspended @bob."
    assert client_can_log_in(bob)
    assert messages_of(bob) == ["Unsuspended: appeal", "Suspended: spam"]
    assert {entry.user for entry in LogEntry.objects.all()} == {mod}


def test_limit_and_unlimit_act_as_the_only_superuser_by_default(root, bob):
    assert run("limit", "bob", "--reason", "borderline").strip() == "Limited @bob."
    assert moderation.account_states([bob.uid]) == {bob.uid: "limited"}
    assert run("unlimit", "bob", "--reason", "fine").strip() == "Unlimited @bob."
    assert moderation.account_states([bob.uid]) == {bob.uid: "active"}
    assert [entry.user for entry in LogEntry.objects.all()] == [root, root]


def test_remove_post_is_a_dry_run_without_yes(mod, alice, bob):
    services.follow_user(uid=alice.uid, other_uid=bob.uid)
    post = services.post_status(uid=bob.uid, message="against the rules")

    dry = run("remove-post", str(post), "--reason", "spam", "--as", "mod")
    assert "Would remove post" in dry and moderate.DRY_RUN in dry
    assert post in home_timeline_of(alice) and LogEntry.objects.count() == 0

    assert run("remove-post", str(post), "--reason", "spam", "--as", "mod", "--yes").startswith("Removed post")
    assert post not in home_timeline_of(alice)
    assert messages_of(bob) == [f"Removed post {post}: spam"]


def test_delete_account_is_a_dry_run_without_yes(mod, alice, bob):
    services.follow_user(uid=alice.uid, other_uid=bob.uid)
    services.post_status(uid=bob.uid, message="one post")

    dry = run("delete-account", "bob", "--reason", "ban evasion", "--as", "mod")
    assert "1 posts" in dry and moderate.DRY_RUN in dry
    assert User.objects.filter(username="bob").exists() and client_can_log_in(bob)

    run("delete-account", "bob", "--reason", "ban evasion", "--as", "mod", "--yes")
    assert not User.objects.filter(username="bob").exists()
    run_worker_burst()  # the erasure's later passes
    assert selectors.get_user(uid=alice.uid).following == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["suspend", "nobody", "--reason", "spam", "--as", "mod"], moderate.UNKNOWN_LOGIN.format(login="nobody")),
        (["suspend", "bob", "--reason", " ", "--as", "mod"], moderation.REASON_MISSING),
        (["suspend", "bob", "--reason", "spam", "--as", "alice"], moderation.NOT_ALLOWED),
        (["suspend", "mod", "--reason", "spam", "--as", "mod"], moderation.CANNOT_MODERATE_SELF),
        (["remove-post", "424242", "--reason", "spam", "--as", "mod"], moderate.UNKNOWN_POST.format(status_id=424242)),
        (["delete-account", "root", "--reason", "x", "--as", "mod", "--yes"], moderation.CANNOT_MODERATE_SUPERUSER),
    ],
)
def test_a_refusal_is_a_command_error_with_the_reason(mod, root, alice, bob, args, message):
    with pytest.raises(CommandError) as error:
        run(*args)
    assert str(error.value) == message
    assert LogEntry.objects.count() == 0 and client_can_log_in(bob)


def test_without_as_it_needs_exactly_one_superuser(bob):
    with pytest.raises(CommandError) as error:
        run("suspend", "bob", "--reason", "spam")
    assert str(error.value) == moderate.NO_ACTOR
    User.objects.create_superuser(username="root", password=PASSWORD)
    User.objects.create_superuser(username="root2", password=PASSWORD)
    with pytest.raises(CommandError):
        run("suspend", "bob", "--reason", "spam")


@pytest.mark.django_db(transaction=True)
def test_errors_exit_non_zero_on_the_command_line(mod, bob):
    """A real ``manage.py`` process on the test database: a refusal prints its reason and exits 1, a missing
    ``--reason`` is a usage error (exit 2)."""
    env = {**os.environ, "DATABASE_URL": testing.database_url()}

    def manage(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, str(settings.BASE_DIR / "manage.py"), "moderate", *args]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)

    refused = manage("suspend", "nobody", "--reason", "spam", "--as", "mod")
    assert refused.returncode == 1 and "No account with the login 'nobody'." in refused.stderr
    usage = manage("suspend", "bob")
    assert usage.returncode == 2 and "--reason" in usage.stderr
    done = manage("suspend", "bob", "--reason", "spam", "--as", "mod")
    assert done.returncode == 0 and done.stdout.strip() == "Suspended @bob."
    assert not client_can_log_in(bob)

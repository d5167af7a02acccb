"""The moderators' actions (``accounts.moderation``): what the person, their followers and the admin's audit
log see after each action and its undo, and who may take which action."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.admin.models import CHANGE, DELETION, LogEntry
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.test import Client

from accounts import audit, moderation, permissions
from accounts.models import Report, User
from accounts.reports import report
from accounts.services import sign_up
from accounts.tests.conftest import PASSWORD, home_timeline_of, logged_in
from timelines import selectors, services
from timelines.exceptions import UnknownUser
from timelines.tests.helpers import run_worker_burst

pytestmark = pytest.mark.django_db


def log_in(login: str) -> tuple[Client, str]:
    """A fresh browser that tries to log in; returns it and the log-in page's text when it was refused."""
    client = Client()
    response = client.post("/accounts/login/", {"username": login, "password": PASSWORD})
    return client, response.content.decode() if response.status_code != 302 else ""


def is_logged_in(client: Client) -> bool:
    return client.get("/").wsgi_request.user.is_authenticated


def messages_of(user: User) -> list[str]:
    return [entry.get_change_message() for entry in audit.entries_for(user=user)]


# --- suspend and unsuspend --------------------------------------------------------------------------------


def test_a_suspended_person_vanishes_cannot_log_in_and_every_session_ends(mod, alice, bob):
    services.follow_user(uid=alice.uid, other_uid=bob.uid)
    post = services.post_status(uid=bob.uid, message="before the suspension")
    phone, laptop = logged_in(bob), logged_in(bob)
    assert post in home_timeline_of(alice)

    assert moderation.suspend(moderator=mod, user=bob, reason="  spam links  ") is True

    assert post not in home_timeline_of(alice)
    assert "This account is suspended" in logged_in(alice).get("/@bob").content.decode()
    assert not is_logged_in(phone) and not is_logged_in(laptop)
    _, page = log_in("bob")
    assert moderation.ACCOUNT_SUSPENDED in page
    _, page = log_in("bob-typo")
    assert moderation.ACCOUNT_SUSPENDED not in page
    assert moderation.account_states([bob.uid, alice.uid]) == {bob.uid: "suspended", alice.uid: "active"}
    assert selectors.get_status(status_id=post).message == "before the suspension"  # nothing is deleted
    assert messages_of(bob) == ["Suspended: spam links"]


def test_suspending_twice_changes_nothing_and_logs_once(mod, bob):
    assert moderation.suspend(moderator=mod, user=bob, reason="spam") is True
    assert moderation.suspend(moderator=mod, user=bob, reason="spam") is False
    assert messages_of(bob) == ["Suspended: spam"]


def test_unsuspending_brings_everything_back_but_not_the_old_sessions(mod, alice, bob, carol):
    services.follow_user(uid=alice.uid, other_uid=bob.uid)
    services.follow_user(uid=carol.uid, other_uid=bob.uid)
    post = services.post_status(uid=bob.uid, message="still here")
    old_session = logged_in(bob)
    moderation.suspend(moderator=mod, user=bob, reason="spam")

    assert moderation.unsuspend(moderator=mod, user=bob, reason="appeal accepted") is True
    run_worker_burst()  # the refills of the followers' homes

    assert post in home_timeline_of(alice) and post in home_timeline_of(carol)
    profile = selectors.get_user(uid=bob.uid)
    assert (profile.followers, profile.posts) == (2, 1)
    assert "This account is suspended" not in logged_in(alice).get("/@bob").content.decode()
    assert not is_logged_in(old_session)
    client, page = log_in("bob")
    assert page == "" and is_logged_in(client)
    assert moderation.account_states([bob.uid]) == {bob.uid: "active"}
    assert messages_of(bob) == ["Unsuspended: appeal accepted", "Suspended: spam"]


# --- limit and unlimit ------------------------------------------------------------------------------------


def test_a_limited_persons_posts_reach_only_their_followers_until_unlimited(mod, alice, bob):
    services.follow_user(uid=alice.uid, other_uid=bob.uid)
    assert moderation.limit(moderator=mod, user=bob, reason="borderline") is True
    quiet = services.post_status(uid=bob.uid, message="#quiet words")
    assert quiet in home_timeline_of(alice)
    assert selectors.get_tag_timeline(tag="quiet") == []
    assert moderation.account_states([bob.uid]) == {bob.uid: "limited"}
    assert client_can_log_in(bob)

    assert moderation.unlimit(moderator=mod, user=bob, reason="better now") is True
    loud = services.post_status(uid=bob.uid, message="#quiet again")
    assert [entry.status.id for entry in selectors.get_tag_timeline(tag="quiet")] == [loud]
    assert moderation.unlimit(moderator=mod, user=bob, reason="again") is False
    assert messages_of(bob) == ["Unlimited: better now", "Limited: borderline"]


def client_can_log_in(user: User) -> bool:
    client, _ = log_in(user.username)
    return is_logged_in(client)


# --- posts, accounts, reports -----------------------------------------------------------------------------


def test_a_removed_post_leaves_every_home_and_its_author_is_told_why(mod, alice, bob):
    services.follow_user(uid=alice.uid, other_uid=bob.uid)
    post = services.post_status(uid=bob.uid, message="against the rules")
    assert moderation.remove_post(moderator=mod, status_id=post, reason="spam links") == bob.uid
    assert post not in home_timeline_of(alice)
    page = logged_in(bob).get("/notifications").content.decode()
    assert "Your post was removed by the moderators" in page and "spam links" in page
    assert messages_of(bob) == [f"Removed post {post}: spam links"]
    with pytest.raises(moderation.ModerationError) as error:
        moderation.remove_post(moderator=mod, status_id=post, reason="again")
    assert error.value.message == moderation.UNKNOWN_POST


def test_a_deleted_account_is_gone_from_sql_and_redis_and_the_audit_log_keeps_the_entry(root, alice, bob):
    services.follow_user(uid=alice.uid, other_uid=bob.uid)
    services.follow_user(uid=bob.uid, other_uid=alice.uid)
    post = services.post_status(uid=bob.uid, message="soon gone")
    uid, pk = bob.uid, bob.pk

    moderation.delete_account(moderator=root, user=bob, reason="ban evasion")
    run_worker_burst()  # the erasure's later passes

    assert not User.objects.filter(pk=pk).exists()
    assert client_can_log_in(bob) is False
    assert post not in home_timeline_of(alice)
    assert selectors.get_user(uid=alice.uid).followers == 0 and selectors.get_user(uid=alice.uid).following == 0
    with pytest.raises(UnknownUser):
        selectors.get_user(uid=uid)
    entry = LogEntry.objects.get(object_id=str(pk))
    assert (entry.action_flag, entry.user) == (DELETION, root)
    assert entry.get_change_message() == "Deleted account: ban evasion"
    # The login is free again once the erasure finished.
    assert sign_up(login="bob", name="New Bob", password=PASSWORD).uid != uid


def test_resolving_a_report_tells_the_reporter_once(mod, alice, bob):
    sent = report(reporter=alice, reported=bob, reason="spam", comment="ads everywhere")
    assert moderation.resolve_report(moderator=mod, report=sent, note="account limited") is True
    assert moderation.resolve_report(moderator=mod, report=sent, note="again") is False
    sent.refresh_from_db()
    assert (sent.state, sent.resolved_by, sent.resolution_note) == (Report.State.RESOLVED, mod, "account limited")
    page = logged_in(alice).get("/notifications").content.decode()
    assert page.count("The moderators resolved your report") == 1 and "account limited" in page
    assert messages_of(bob) == [f"Resolved report {sent.pk}: account limited"]


def test_every_action_is_an_admin_change_entry_in_recent_actions_and_in_the_accounts_history(root, bob):
    moderation.suspend(moderator=root, user=bob, reason="flood")
    entry = LogEntry.objects.get()
    assert (entry.action_flag, entry.user, entry.get_edited_object()) == (CHANGE, root, bob)
    admin = Client()
    admin.force_login(root)
    assert "Suspended: flood" in admin.get(f"/admin/accounts/user/{bob.pk}/history/").content.decode()
    recent = admin.get("/admin/").content.decode()  # the index's "Recent actions"
    assert f"/admin/accounts/user/{bob.pk}/change/" in recent


# --- who may act ------------------------------------------------------------------------------------------


def test_moderators_can_view_accounts_and_act_but_not_edit_accounts(mod, bob):
    assert all(mod.has_perm(permission) for permission in permissions.ACTIONS)
    assert mod.has_perm("accounts.view_user") and mod.has_perm("accounts.view_report")
    assert not any(mod.has_perm(f"accounts.{verb}_user") for verb in ("add", "change", "delete"))
    admin = Client()
    admin.force_login(mod)
    assert admin.get(f"/admin/accounts/user/{bob.pk}/change/").status_code == 200  # a read-only view
    admin.post(f"/admin/accounts/user/{bob.pk}/change/", {"username": "renamed", "is_staff": "on"})
    assert User.objects.get(pk=bob.pk).username == "bob"
    assert admin.get("/admin/accounts/user/add/").status_code == 403


def test_staff_without_the_permission_cannot_act(make_account, bob):
    staff = make_account("helper", staff=True)
    with pytest.raises(moderation.ModerationError) as error:
        moderation.suspend(moderator=staff, user=bob, reason="spam")
    assert error.value.message == moderation.NOT_ALLOWED
    assert is_logged_in(logged_in(bob)) and moderation.account_states([bob.uid]) == {bob.uid: "active"}


@pytest.mark.parametrize(
    ("target", "reason", "message"),
    [
        ("bob", "", moderation.REASON_MISSING),
        ("bob", " \t\n ", moderation.REASON_MISSING),
        ("bob", "x" * (moderation.MAX_REASON_LENGTH + 1), moderation.REASON_TOO_LONG),
        ("mod", "spam", moderation.CANNOT_MODERATE_SELF),
        ("root", "spam", moderation.CANNOT_MODERATE_SUPERUSER),
        ("staff", "spam", moderation.CANNOT_MODERATE_STAFF),
    ],
)
def test_a_refused_action_says_why_and_changes_nothing(mod, root, bob, make_account, target, reason, message):
    accounts = {"bob": bob, "mod": mod, "root": root, "staff": make_account("staff", staff=True)}
    user = accounts[target]
    for action in (moderation.suspend, moderation.limit, moderation.delete_account):
        with pytest.raises(moderation.ModerationError) as error:
            action(moderator=mod, user=user, reason=reason)
        assert error.value.message == message
    assert User.objects.get(pk=user.pk).is_active
    assert LogEntry.objects.count() == 0


def test_a_superuser_may_moderate_staff(root, make_account):
    staff = make_account("staff", staff=True)
    assert moderation.limit(moderator=root, user=staff, reason="testing") is True


def test_an_unknown_post_is_refused_with_its_message(mod):
    with pytest.raises(moderation.ModerationError) as error:
        moderation.remove_post(moderator=mod, status_id=987654, reason="spam")
    assert error.value.message == moderation.UNKNOWN_POST


def test_setup_moderators_repairs_the_group_and_makes_moderators_staff(alice):
    Group.objects.get(name=permissions.MODERATORS_GROUP).permissions.clear()
    call_command("setup_moderators", "alice", stdout=StringIO())
    alice = User.objects.get(pk=alice.pk)
    assert alice.is_staff and all(alice.has_perm(permission) for permission in permissions.MODERATOR_PERMISSIONS)
    assert not alice.has_perm("accounts.change_user")
    with pytest.raises(CommandError):
        call_command("setup_moderators", "nobody", stdout=StringIO())


def test_removing_a_reports_posts_removes_those_still_there_once(mod, alice, bob):
    services.follow_user(uid=alice.uid, other_uid=bob.uid)
    first = services.post_status(uid=bob.uid, message="spam one")
    second = services.post_status(uid=bob.uid, message="spam two")
    sent = report(reporter=alice, reported=bob, reason="spam", status_ids=[first, second])
    services.delete_status(uid=bob.uid, status_id=first)

    assert moderation.remove_reported_posts(moderator=mod, report=sent, reason="spam") == [second]
    assert second not in home_timeline_of(alice)
    assert moderation.remove_reported_posts(moderator=mod, report=sent, reason="spam") == []
    assert messages_of(bob) == [f"Removed post {second}: spam"]

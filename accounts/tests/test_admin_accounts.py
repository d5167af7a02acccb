"""Accounts in the admin: the list shows what Redis holds about each account, filters by state, and every
action (Suspend, Unsuspend, Limit, Unlimit, Delete account) needs a reason, does what it says and leaves an
audit entry in the account's history and in Recent actions."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import report
from accounts.tests.conftest import PASSWORD
from timelines import selectors, services
from timelines.tests.helpers import run_worker_burst

pytestmark = pytest.mark.django_db


def act(client: Client, action: str, *users: User, query: str = "", **fields: str):
    data = {"action": action, "_selected_action": [user.pk for user in users], **fields}
    return client.post(f"/admin/accounts/user/{query}", data, follow=True)


def row_of(page: str, login: str) -> str:
    start = page.index(f">{login}</a>")
    return page[start : page.index("</tr>", start)]


def test_the_list_shows_posts_followers_open_reports_and_state(
    moderator_client: Client, alice: User, bob: User, carol: User
):
    services.post_status(uid=alice.uid, message="one")
    services.post_status(uid=alice.uid, message="two")
    services.follow_user(uid=bob.uid, other_uid=alice.uid)
    report(reporter=bob, reported=alice, reason="spam", comment="ads")
    report(reporter=carol, reported=alice, reason="abuse")
    act(moderator_client, "suspend", carol, apply="1", reason="bot")

    page = moderator_client.get("/admin/accounts/user/").content.decode()
    cells = row_of(page, "alice")
    assert '<td class="field-posts">2</td>' in cells
    assert '<td class="field-followers">1</td>' in cells
    assert '<td class="field-open_reports">2</td>' in cells
    assert '<td class="field-state">active</td>' in cells
    assert f'<td class="field-uid">{alice.uid}</td>' in cells
    assert '<td class="field-state">suspended</td>' in row_of(page, "carol")

    suspended = moderator_client.get("/admin/accounts/user/?state=suspended").content.decode()
    assert ">carol</a>" in suspended and ">alice</a>" not in suspended
    active = moderator_client.get("/admin/accounts/user/?state=active").content.decode()
    assert ">alice</a>" in active and ">carol</a>" not in active


def test_each_action_asks_for_a_reason_first(moderator_client: Client, alice: User):
    for action in ("suspend", "limit", "delete_account"):
        asked = act(moderator_client, action, alice)
        assert asked.status_code == 200 and b'name="reason"' in asked.content
        refused = act(moderator_client, action, alice, apply="1", reason="   ")
        assert b"errornote" in refused.content
    assert User.objects.filter(pk=alice.pk, is_active=True).exists()
    assert selectors.account_states([alice.uid]) == {alice.uid: "active"}


def test_suspend_and_unsuspend_with_their_audit_entries(moderator_client: Client, alice: User, bob: User):
    services.follow_user(uid=bob.uid, other_uid=alice.uid)
    post = services.post_status(uid=alice.uid, message="hello followers")
    done = act(moderator_client, "suspend", alice, apply="1", reason="ban evasion")
    assert b"Suspended 1 account(s)." in done.content
    alice.refresh_from_db()
    assert not alice.is_active and selectors.account_states([alice.uid]) == {alice.uid: "suspended"}
    assert post not in [status["id"] for status in selectors.get_status_messages(uid=bob.uid, viewer_uid=bob.uid)]
    assert not Client().login(username="alice", password=PASSWORD)

    act(moderator_client, "unsuspend", alice, apply="1", reason="appeal granted")
    alice.refresh_from_db()
    assert alice.is_active and selectors.account_states([alice.uid]) == {alice.uid: "active"}

    history = moderator_client.get(f"/admin/accounts/user/{alice.pk}/history/").content.decode()
    assert "Suspended: ban evasion" in history and "Unsuspended: appeal granted" in history
    index = moderator_client.get("/admin/").content.decode()
    recent = index[index.index('id="recent-actions-module"') :]
    assert f'<a href="/admin/accounts/user/{alice.pk}/change/">alice</a>' in recent


def test_limit_and_unlimit(moderator_client: Client, alice: User):
    act(moderator_client, "limit", alice, apply="1", reason="spam")
    assert selectors.account_states([alice.uid]) == {alice.uid: "limited"}
    again = act(moderator_client, "limit", alice, apply="1", reason="spam")
    assert b"already so" in again.content
    act(moderator_client, "unlimit", alice, apply="1", reason="calmer now")
    assert selectors.account_states([alice.uid]) == {alice.uid: "active"}


def test_delete_account_asks_twice_then_removes_sql_and_redis(moderator_client: Client, alice: User):
    uid = alice.uid
    services.post_status(uid=uid, message="soon gone")
    confirm = act(moderator_client, "delete_account", alice, apply="1", reason="illegal content")
    assert b"cannot be undone" in confirm.content and b'name="confirm"' in confirm.content
    assert User.objects.filter(pk=alice.pk).exists()

    done = act(moderator_client, "delete_account", alice, confirm="Yes", reason="illegal content")
    assert b"Deleted 1 account(s)." in done.content
    assert not User.objects.filter(pk=alice.pk).exists()
    run_worker_burst()  # the erasure's remaining passes
    assert selectors.get_users(uids=[uid]) == []
    assert "Deleted account: illegal content" in moderator_client.get("/admin/admin/logentry/").content.decode()


def test_a_moderator_cannot_act_on_staff(moderator_client: Client, root: User, alice: User):
    done = act(moderator_client, "suspend", alice, root, apply="1", reason="test")
    assert b"Suspended 1 account(s)." in done.content
    assert b"Superusers cannot be moderated." in done.content
    root.refresh_from_db()
    assert root.is_active

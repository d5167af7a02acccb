"""Who gets into the moderators' admin pages: staff only (anyone else is sent to the admin's log-in), each
action behind its own permission, and a moderator who can act but not edit accounts."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from accounts.tests.conftest import logged_in
from timelines import selectors

pytestmark = pytest.mark.django_db

PAGES = (
    "/admin/",
    "/admin/dashboard/",
    "/admin/moderation/statuses/",
    "/admin/accounts/user/",
    "/admin/accounts/report/",
    "/admin/admin/logentry/",
)


def test_anonymous_and_members_are_sent_to_the_admin_login(alice: User):
    for client in (Client(), logged_in(alice)):
        for page in PAGES:
            response = client.get(page)
            assert response.status_code == 302, page
            assert response["Location"].startswith("/admin/login/"), page


def test_the_index_has_a_moderation_section_linking_every_page(moderator_client: Client):
    page = moderator_client.get("/admin/").content.decode()
    section = page[page.index('class="app-moderation') :]
    section = section[: section.index("</table>")]
    for name, url in (
        ("Statuses", "/admin/moderation/statuses/"),
        ("Accounts", "/admin/accounts/user/"),
        ("Reports", "/admin/accounts/report/"),
        ("Audit log", "/admin/admin/logentry/"),
        ("Dashboard", "/admin/dashboard/"),
    ):
        assert f'<a href="{url}">{name}</a>' in section
    for url in ("/admin/dashboard/", "/admin/moderation/statuses/", "/admin/accounts/report/"):
        assert moderator_client.get(url).status_code == 200


def test_a_moderator_can_act_on_an_account_but_not_edit_it(moderator_client: Client, alice: User):
    change = moderator_client.get(f"/admin/accounts/user/{alice.pk}/change/")
    assert change.status_code == 200 and b'name="username"' not in change.content
    moderator_client.post(f"/admin/accounts/user/{alice.pk}/change/", {"username": "mallory", "is_staff": "on"})
    alice.refresh_from_db()
    assert alice.username == "alice" and not alice.is_staff
    assert moderator_client.get("/admin/accounts/user/add/").status_code == 403
    assert moderator_client.get(f"/admin/accounts/user/{alice.pk}/delete/").status_code == 403

    listing = moderator_client.get("/admin/accounts/user/").content.decode()
    for action in ("suspend", "unsuspend", "limit", "unlimit", "delete_account"):
        assert f'value="{action}"' in listing
    assert 'value="delete_selected"' not in listing
    moderator_client.post(
        "/admin/accounts/user/",
        {"action": "limit", "_selected_action": [alice.pk], "apply": "1", "reason": "spam wave"},
    )
    assert selectors.account_states([alice.uid]) == {alice.uid: "limited"}


def test_staff_without_a_permission_neither_sees_nor_runs_its_action(alice: User, bob: User):
    bob.is_staff = True
    bob.save()
    staff = logged_in(bob)
    assert staff.get("/admin/moderation/statuses/").status_code == 403
    assert staff.get("/admin/accounts/user/").status_code == 403  # no view_user either
    index = staff.get("/admin/").content.decode()
    assert "Statuses" not in index and "Dashboard" in index
    assert staff.get("/admin/dashboard/").status_code == 200

"""The audit log in the admin: every moderation action listed with who, what, whom and why, and nobody, a
superuser included, can add, edit or delete an entry."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client

from accounts import moderation
from accounts.models import User

pytestmark = pytest.mark.django_db


def test_the_audit_log_lists_actions_and_is_read_only(root_client: Client, mod: User, alice: User):
    moderation.limit(moderator=mod, user=alice, reason="too many links")
    entry = LogEntry.objects.get()
    page = root_client.get("/admin/admin/logentry/").content.decode()
    assert "mod" in page and "alice" in page and "Limited: too many links" in page
    assert root_client.get(f"/admin/admin/logentry/{entry.pk}/change/").status_code == 200
    assert root_client.get("/admin/admin/logentry/add/").status_code == 403
    assert root_client.get(f"/admin/admin/logentry/{entry.pk}/delete/").status_code == 403
    root_client.post(f"/admin/admin/logentry/{entry.pk}/change/", {"change_message": "nothing"})
    root_client.post(
        "/admin/admin/logentry/", {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"}
    )
    assert LogEntry.objects.get().change_message == "Limited: too many links"

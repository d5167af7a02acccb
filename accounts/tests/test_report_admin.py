"""Reports in Django admin: listed with their filters, and read-only until the moderation queue (issue 12)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Report, User
from accounts.services import report, sign_up

pytestmark = pytest.mark.django_db


def test_the_admin_lists_reports_with_their_filters_and_cannot_add_or_edit_them():
    alice = sign_up(login="alice", name="Alice", password=None)
    bob = sign_up(login="bob", name="Bob", password=None)
    sent = report(reporter=alice, reported=bob, reason="spam", comment="ads")
    User.objects.create_superuser(username="root", password="x-long-password")
    admin = Client()
    assert admin.login(username="root", password="x-long-password")

    page = admin.get("/admin/accounts/report/?state__exact=open&reason__exact=spam").content.decode()
    assert "alice" in page and "bob" in page and "Spam" in page
    assert "alice" not in admin.get("/admin/accounts/report/?reason__exact=abuse").content.decode()
    change = admin.get(f"/admin/accounts/report/{sent.pk}/change/")
    assert change.status_code == 200 and b"ads" in change.content and b'name="comment"' not in change.content
    assert admin.get("/admin/accounts/report/add/").status_code == 403
    admin.post(f"/admin/accounts/report/{sent.pk}/change/", {"comment": "edited", "state": "resolved"})
    assert Report.objects.get().comment == "ads" and Report.objects.get().state == "open"

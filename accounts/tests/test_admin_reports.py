"""The reports queue in the admin: open reports first with the reported posts' text, its filters, and the
actions Resolve, Remove reported posts, Limit account and Suspend account, each needing its note or reason;
acting resolves the report and tells the reporter. Reports cannot be added, edited or deleted here."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import Report, User
from accounts.services import report
from timelines import selectors, services

pytestmark = pytest.mark.django_db


def act(client: Client, action: str, *reports: Report, **fields: str):
    data = {"action": action, "_selected_action": [item.pk for item in reports], **fields}
    return client.post("/admin/accounts/report/", data, follow=True)


def notification_texts(user: User) -> list[str]:
    return [item.text for item in selectors.get_notifications(uid=user.uid)]


def test_open_reports_first_with_the_reported_posts_text_and_filters(
    moderator_client: Client, alice: User, bob: User, carol: User
):
    post = services.post_status(uid=alice.uid, message="buy cheap pills")
    old = report(reporter=carol, reported=bob, reason="abuse", comment="rude")
    Report.objects.filter(pk=old.pk).update(state=Report.State.RESOLVED)
    sent = report(reporter=bob, reported=alice, reason="spam", comment="ads", status_ids=[post])

    page = moderator_client.get("/admin/accounts/report/").content.decode()
    assert page.index(f"/admin/accounts/report/{sent.pk}/change/") < page.index(f"/admin/accounts/report/{old.pk}/")
    assert "buy cheap pills" in page and f'href="/@alice/{post}"' in page
    detail = moderator_client.get(f"/admin/accounts/report/{sent.pk}/change/").content.decode()
    assert "buy cheap pills" in detail and "ads" in detail and 'name="comment"' not in detail

    assert (
        "buy cheap pills" not in moderator_client.get("/admin/accounts/report/?state__exact=resolved").content.decode()
    )
    assert "buy cheap pills" not in moderator_client.get("/admin/accounts/report/?reason__exact=abuse").content.decode()
    by_account = moderator_client.get(f"/admin/accounts/report/?reported__id__exact={bob.pk}").content.decode()
    assert f"/admin/accounts/report/{old.pk}/change/" in by_account and "buy cheap pills" not in by_account
    assert moderator_client.get("/admin/accounts/report/add/").status_code == 403
    assert moderator_client.get(f"/admin/accounts/report/{sent.pk}/delete/").status_code == 403


def test_resolve_needs_a_note_and_tells_the_reporter(moderator_client: Client, alice: User, bob: User):
    sent = report(reporter=bob, reported=alice, reason="spam")
    refused = act(moderator_client, "resolve", sent, apply="1", reason="")
    assert b"errornote" in refused.content and Report.objects.get().state == "open"
    act(moderator_client, "resolve", sent, apply="1", reason="Nothing against the rules")
    assert Report.objects.get().state == "resolved"
    assert "Nothing against the rules" in notification_texts(bob)


def test_remove_reported_posts_removes_them_tells_the_author_and_resolves(
    moderator_client: Client, alice: User, bob: User
):
    posts = [services.post_status(uid=alice.uid, message=f"spam {n}") for n in range(2)]
    sent = report(reporter=bob, reported=alice, reason="spam", status_ids=posts)
    act(moderator_client, "remove_posts", sent, apply="1", reason="Spam")
    assert not any(selectors.status_exists(status_id=post) for post in posts)
    assert notification_texts(alice).count("Spam") == 2
    assert Report.objects.get().state == "resolved"


@pytest.mark.parametrize(("action", "state"), [("limit_account", "limited"), ("suspend_account", "suspended")])
def test_limit_or_suspend_the_reported_account(moderator_client: Client, alice: User, bob: User, action, state):
    sent = report(reporter=bob, reported=alice, reason="abuse")
    assert b'name="reason"' in act(moderator_client, action, sent).content
    act(moderator_client, action, sent, apply="1", reason="Harassment")
    assert selectors.account_states([alice.uid]) == {alice.uid: state}
    assert Report.objects.get().state == "resolved"

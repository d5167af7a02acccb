"""Direct messages and the moderators (issue 19): a reported message shows with its report, and nothing else of a
conversation shows in the admin's Statuses list (by id, @login, words or paging through every post)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from accounts.services import report
from timelines import services

pytestmark = pytest.mark.django_db

LIST = "/admin/moderation/statuses/"


def listed_ids(client: Client, query: str = "") -> list[int]:
    page = client.get(f"{LIST}{query}").content.decode()
    return [int(found) for found in re.findall(r'data-status-id="(\d+)"', page)]


def test_only_a_reported_message_shows_to_the_moderators(moderator_client: Client, alice: User, bob: User):
    public = services.post_status(uid=alice.uid, message="zebraword in public")
    rude, conversation_id = services.send_message(uid=alice.uid, message="zebraword you fool", to=(bob.uid,))
    other, _ = services.send_message(uid=alice.uid, message="zebraword and more", conversation_id=conversation_id)
    for query in ("", f"?q={rude}", f"?q={other}", "?q=%40alice", "?q=zebraword"):
        shown = listed_ids(moderator_client, query)
        assert rude not in shown and other not in shown, query
    assert listed_ids(moderator_client, "?q=zebraword") == [public]

    sent = report(reporter=bob, reported=alice, reason="abuse", comment="insults", status_ids=[rude])
    assert list(sent.status_ids) == [rude]
    detail = moderator_client.get(f"/admin/accounts/report/{sent.pk}/change/").content.decode()
    assert "zebraword you fool" in detail and "insults" in detail
    assert "zebraword and more" not in detail

"""The per-recipient policy is the one seam every delivery and read goes through (timelines.policy).

A policy that refuses one recipient (``timelines.tests.policies.RefusingPolicy``, configured through the
environment so the RQ worker started by the test applies it too) must keep a post out of that recipient's
home, their list and their pages, on the inline part of the fan-out and on the deferred part, while every
other recipient still gets it. The live home's side is in ``streaming/tests/test_live.py``.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.services import sign_up
from timelines import limits, queue, selectors, services
from timelines.tests import policies
from timelines.tests.helpers import home_timeline_of, homes_holding, run_worker_burst

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

BEFORE, BETWEEN, AFTER = 10, limits.POSTS_PER_PASS - 10, 50
# The first pass reaches POSTS_PER_PASS followers: BEFORE fans, the inline refusal, then the rest of it.
INLINE_FANS = limits.POSTS_PER_PASS - 1


def shown_ids(response) -> list[int]:
    assert response.status_code == 200
    return [int(found) for found in re.findall(r'id="status-(\d+)"', response.content.decode())]


@pytest.fixture
def refusing(settings, monkeypatch):
    """Turn the refusing policy on here and in every process the test starts; returns a setter."""
    settings.TIMELINES_POLICY = policies.PATH
    monkeypatch.setenv("SOCIALSITE_POLICY", policies.PATH)

    def refuse(*recipients: int) -> None:
        monkeypatch.setenv(policies.ENV, ",".join(policies.refusal(recipient) for recipient in recipients))

    return refuse


def test_a_refused_recipient_gets_nothing_inline_or_deferred_and_everyone_else_gets_everything(
    alice, make_user, refusing
):
    fans = [make_user() for _ in range(BEFORE)]
    inline = sign_up(login="inline", name="Refused inline", password="not-a-real-password-1")
    fans += [make_user() for _ in range(BETWEEN)]
    deferred = sign_up(login="deferred", name="Refused later", password="not-a-real-password-2")
    fans += [make_user() for _ in range(AFTER)]
    for follower in [*fans[:BEFORE], inline.uid, *fans[BEFORE : BEFORE + BETWEEN], deferred.uid, *fans[-AFTER:]]:
        services.follow_user(uid=follower, other_uid=alice)
    lists = {}
    for owner in (inline.uid, fans[0]):
        lists[owner] = services.create_user_list(uid=owner, name="Watching alice")
        services.follow_user_list(uid=owner, other_uid=alice, list_id=lists[owner])
    refusing(inline.uid, deferred.uid)

    status_id = services.post_status(uid=alice, message="not for everyone")
    assert status_id not in home_timeline_of(inline.uid)
    assert homes_holding(fans[:INLINE_FANS], status_id) == INLINE_FANS
    assert homes_holding(fans[INLINE_FANS:], status_id) == 0  # not yet: the deferred part is queued
    assert [s.id for s in selectors.get_list_status_messages(list_id=lists[fans[0]])] == [status_id]
    assert selectors.get_list_status_messages(list_id=lists[inline.uid]) == []

    assert queue.get_queue().count == 1  # queued at once, even inside the test's SQL transaction
    run_worker_burst()  # the worker inherits the policy through the environment
    assert status_id not in home_timeline_of(deferred.uid)
    assert homes_holding(fans, status_id) == len(fans)

    # Pages: the refused person's home, alice's profile and the list page, read as that person.
    client = Client()
    client.force_login(inline)
    assert status_id not in shown_ids(client.get("/"))
    assert status_id not in shown_ids(client.get("/@alice"))
    assert status_id not in shown_ids(client.get(f"/lists/{lists[fans[0]]}"))
    assert status_id in shown_ids(Client().get("/@alice"))  # an anonymous reader is not refused

    # Refills ask the same policy: unfollow, follow again, rebuild.
    services.unfollow_user(uid=deferred.uid, other_uid=alice)
    services.follow_user(uid=deferred.uid, other_uid=alice)
    services.rebuild_timeline(uid=deferred.uid)
    assert status_id not in home_timeline_of(deferred.uid)
    services.rebuild_timeline(uid=fans[-1])
    assert status_id in home_timeline_of(fans[-1])

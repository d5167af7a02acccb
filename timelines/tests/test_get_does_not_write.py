"""GET requests never write: not to Redis, not to SQL. A profile is made at sign-up and log-in, not by pages."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from socialsite import redis_client
from timelines import services
from timelines.tests.test_views import PASSWORD, logged_in

pytestmark = pytest.mark.django_db


def redis_changes() -> int:
    """How many changes Redis has made to its data (its "dirty" counter, which every write increments)."""
    return sum(int(server.info("persistence")["rdb_changes_since_last_save"]) for server in redis_client.primaries())


def test_pages_read_without_writing(alice):
    client, uid = logged_in("reader")
    services.follow_user(uid=uid, other_uid=alice)
    services.post_status(uid=alice, message="something to read")
    list_id = services.create_user_list(uid=uid, name="Reading")
    _, conversation_id = services.send_message(uid=alice, message="unread until the page asks", to=(uid,))
    pages = ("/", "/@alice", "/@alice/followers", "/@reader/following", "/@reader/lists", f"/lists/{list_id}")
    pages += ("/messages", f"/messages/{conversation_id}", "/@alice/message")
    before = redis_changes()
    with CaptureQueriesContext(connection) as queries:
        for path in pages:
            assert client.get(path).status_code == 200, path
        assert Client().get("/@alice").status_code == 200
    assert redis_changes() == before
    assert not [q["sql"] for q in queries.captured_queries if not q["sql"].lstrip().upper().startswith("SELECT")]


def test_an_account_made_without_a_profile_gets_one_when_it_logs_in():
    User.objects.create_superuser(username="root", password=PASSWORD)
    client = Client()
    assert client.login(username="root", password=PASSWORD)
    user = User.objects.get(username="root")
    assert user.uid is not None
    assert b"@root" in client.get("/").content

"""The admin dashboard: a week of activity as server-drawn SVG charts with a text alternative, each with its
total and the change from the week before, today's posts counted, and the health gauges."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client

from accounts import moderation
from accounts.models import User
from accounts.services import report
from socialsite.redis_client import is_cluster
from timelines import limits, queue, services
from timelines.selectors import dashboard
from timelines.services import activity, idle

pytestmark = pytest.mark.django_db

WEEK = 7 * 24 * 3600


def total(page: str, slug: str) -> int:
    return int(re.search(rf'data-testid="total-{slug}">(\d+)<', page).group(1))


def test_the_dashboard_counts_this_week_against_the_last(
    moderator_client: Client, mod: User, alice: User, bob: User, django_capture_on_commit_callbacks
):
    for n in range(3):
        services.post_status(uid=alice.uid, message=f"post {n}")
    services.follow_user(uid=bob.uid, other_uid=alice.uid)
    with django_capture_on_commit_callbacks(execute=True):  # reports are counted once committed
        sent = report(reporter=bob, reported=alice, reason="spam")
    activity.record_post(uid=bob.uid, when=time.time() - WEEK - 3600)  # the week before: counted apart
    activity.record_signup(when=time.time() - WEEK - 3600)

    page = moderator_client.get("/admin/dashboard/").content.decode()
    assert re.search(r'data-testid="posts-today">3<', page)
    assert total(page, "posts") == 3 and "+2 (+200%)" in page
    assert total(page, "signups") == 3  # alice, bob and the moderator
    assert total(page, "active") == 2  # alice posted, bob followed
    assert total(page, "reports") == 1 and total(page, "resolved") == 0
    for slug in ("signups", "posts", "active", "reports", "resolved"):
        chart = page[page.index(f'id="chart-{slug}"') :]
        chart = chart[: chart.index("</section>")]
        assert '<svg viewBox="0 0 720 180" role="img"' in chart and "<desc" in chart and "<table>" in chart
    assert page.count('<rect class="bar"') == 7 * 4 + 7 * 24
    assert 'href="/admin/rq/"' in page
    assert page.count("<h3>Redis ") == len(dashboard.get_redis_servers())

    with django_capture_on_commit_callbacks(execute=True):
        moderation.resolve_report(moderator=mod, report=sent, note="done")
    assert total(moderator_client.get("/admin/dashboard/").content.decode(), "resolved") == 1


def gauge(page: str, title: str) -> str:
    start = page.index(f"<h3>{title}</h3>")
    return re.search(r'<div class="value">([^<]*)</div>', page[start:]).group(1)


def test_the_gauges_show_the_queue_its_fan_out_backlog_and_each_redis_server(
    moderator_client: Client, alice: User, bob: User, carol: User, monkeypatch
):
    monkeypatch.setattr(limits, "POSTS_PER_PASS", 1)  # a post to two followers leaves a delivery batch queued
    for follower in (bob, carol):
        services.follow_user(uid=follower.uid, other_uid=alice.uid)
    services.post_status(uid=alice.uid, message="to every follower")
    queued = queue.get_queue().count

    page = moderator_client.get("/admin/dashboard/").content.decode()
    assert gauge(page, "Fan-out backlog") == "1"
    assert gauge(page, "Job queue") == str(queued) and queued >= 1
    assert gauge(page, "Failed jobs") == "0"
    assert 'href="/admin/rq/queues/0/failed/"' in page
    servers = dashboard.get_redis_servers()
    assert len(servers) == page.count("<h3>Redis ") == (3 if is_cluster() else 1)
    assert sum(server.keys for server in servers) > 0 and all(server.used_memory > 0 for server in servers)


def test_the_gauges_count_the_homes_dropped_while_their_owners_are_away(moderator_client: Client, alice: User):
    assert gauge(moderator_client.get("/admin/dashboard/").content.decode(), "Idle homes dropped") == "0"
    # A month and a day later the sweep finds alice (and the moderator, whose visit above was written today).
    assert idle.sweep_all(now=time.time() + 31 * 24 * 3600) == 2
    assert gauge(moderator_client.get("/admin/dashboard/").content.decode(), "Idle homes dropped") == "2"

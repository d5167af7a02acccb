"""Idle timelines (issue 23): the homes and list timelines of people away for SOCIALSITE_IDLE_DAYS are dropped by
the periodic sweep, delivery writes nothing into them meanwhile, and they are rebuilt from the people followed,
through the policy, before the person's first page when they come back."""

from __future__ import annotations

import time

import pytest
from django.core.management import call_command
from django.test import override_settings

from socialsite.redis_client import get_redis
from socialsite.tests.people import logged_in
from timelines import audit, keys, limits, queue, selectors, services, store, tasks
from timelines.selectors import dashboard
from timelines.services import idle, visits
from timelines.tests.helpers import home_timeline_of, run_worker_burst
from timelines.tests.test_lists import list_timeline_of

pytestmark = pytest.mark.django_db

AWAY = 31 * 86_400  # a month and a day: past the default SOCIALSITE_IDLE_DAYS of 30


@pytest.fixture(autouse=True)
def fresh_visits():
    """Each test's Redis is empty and hands out the same uids again: forget the visits other tests wrote."""
    visits.forget_all()
    yield
    visits.forget_all()


def assert_clean() -> None:
    report = audit.audit()
    assert report.problems == 0, [finding for finding in report.findings if finding.problems]


def later() -> float:
    return time.time() + AWAY


def test_the_sweep_drops_the_homes_of_people_away_and_delivery_writes_nothing_into_them(alice, bob, carol):
    services.follow_user(uid=bob, other_uid=alice)
    services.post_status(uid=alice, message="before bob left")
    services.follow_user(uid=carol, other_uid=alice)
    assert home_timeline_of(bob)

    # carol came by yesterday: only bob (and alice, who has not been seen either) are away.
    visits.forget_all()
    idle.note_seen(uid=carol, now=later() - 86_400)
    assert idle.sweep_all(now=later()) == 2
    assert not get_redis().exists(keys.home_timeline(bob))
    assert home_timeline_of(carol)
    assert dashboard.get_idle_homes() == 2

    services.post_status(uid=alice, message="while bob is away")
    services.repost_status(uid=carol, status_id=services.post_status(uid=carol, message="carol's own"))
    assert not get_redis().exists(keys.home_timeline(bob))  # no writes to a dropped home
    assert len(home_timeline_of(carol)) == 3
    # A sweep run again changes nothing.
    assert idle.sweep_all(now=later()) == 0
    assert dashboard.get_idle_homes() == 2
    assert_clean()


def test_coming_back_rebuilds_the_home_newest_first_through_the_policy(alice, bob, carol, make_user):
    dave = make_user("dave")
    for followee in (alice, carol, dave):
        services.follow_user(uid=bob, other_uid=followee)
    posted = [services.post_status(uid=author, message=f"post {n}") for n in range(4) for author in (alice, carol)]
    services.mute_user(uid=bob, other_uid=dave)
    services.post_status(uid=dave, message="muted: not for bob's home")
    own = services.post_status(uid=bob, message="bob's own")
    idle.sweep_all(now=later())
    services.post_status(uid=carol, message="while bob is away")  # not pushed: found in carol's profile
    missed = int(store.timelines.timeline_ids(keys.profile_timeline(carol))[0])

    visits.forget_all()
    assert idle.note_seen(uid=bob, now=later()) is True
    assert home_timeline_of(bob) == sorted([*posted, own, missed], reverse=True)
    assert [entry.status.id for entry in selectors.get_status_messages(uid=bob, count=3)] == sorted(
        [*posted, own, missed], reverse=True
    )[:3]
    assert dashboard.get_idle_homes() == 3  # alice, carol and dave are still away; bob is back
    services.post_status(uid=alice, message="delivered again")
    assert len(home_timeline_of(bob)) == len(posted) + 3
    # The next visit within the hour writes nothing and rebuilds nothing.
    assert idle.note_seen(uid=bob, now=later() + 60) is False


def test_a_visit_racing_the_sweep_keeps_the_home(alice, bob):
    services.follow_user(uid=bob, other_uid=alice)
    services.post_status(uid=alice, message="still here")
    # bob's visit reached his hash but the sweep read the shard before: the drop re-checks and keeps his home.
    get_redis().hset(keys.user(bob), keys.SEEN_FIELD, later())
    assert idle.sweep_idle(shard=bob % limits.IDLE_SEEN_SHARDS, now=later()).dropped == 0 or home_timeline_of(bob)
    assert home_timeline_of(bob)
    assert not store.idle.is_dropped(keys.user(bob))


def test_a_page_view_rebuilds_the_home_before_showing_it(alice):
    client, uid = logged_in("reader")
    services.follow_user(uid=uid, other_uid=alice)
    services.post_status(uid=alice, message="written before the reader left")
    idle.sweep_all(now=later())
    assert not home_timeline_of(uid)
    services.post_status(uid=alice, message="written while the reader was away")

    visits.forget_all()  # an hour (and a month) later, in this process
    page = client.get("/").content.decode()
    assert "written before the reader left" in page and "written while the reader was away" in page
    assert not store.idle.is_dropped(keys.user(uid))


@override_settings(IDLE_DAYS=60)
def test_the_cutoff_is_the_setting(alice):
    assert idle.sweep_all(now=later()) == 0
    assert idle.count_idle(now=later() + 30 * 86_400) == 1


def test_lists_of_an_idle_owner_are_dropped_skipped_and_refilled_on_return(alice, bob):
    list_id = services.create_user_list(uid=bob, name="Climbers")
    services.follow_user_list(uid=bob, other_uid=alice, list_id=list_id)
    first = services.post_status(uid=alice, message="on the list")
    idle.sweep_all(now=later())
    assert not list_timeline_of(list_id)
    second = services.post_status(uid=alice, message="while bob is away")
    assert not list_timeline_of(list_id)

    visits.forget_all()
    idle.note_seen(uid=bob, now=later())
    run_worker_burst()
    assert list_timeline_of(list_id) == [second, first]


def test_audit_understands_a_dropped_home(alice, bob, capsys):
    services.follow_user(uid=bob, other_uid=alice)
    status_id = services.post_status(uid=alice, message="hello")
    idle.sweep_all(now=later())
    assert_clean()  # an absent home is no damage
    # A cluster's fan-out racing the drop can leave an entry; and the gauge's counter can drift.
    get_redis().zadd(keys.home_timeline(bob), {str(status_id): 1.0})
    get_redis().set(keys.IDLE_HOMES_COUNTER, 7)
    call_command("audit_timelines")
    assert "idle-dropped timelines" in capsys.readouterr().out
    report = audit.audit(fix=True)
    found = next(finding for finding in report.findings if finding.name == "idle-dropped timelines")
    assert found.problems == 2 and found.fixed == 2
    assert not get_redis().exists(keys.home_timeline(bob))
    assert dashboard.get_idle_homes() == 2
    assert_clean()


def test_the_sweep_is_a_chain_of_jobs_that_schedules_the_next_sweep():
    assert idle.ensure_sweep_scheduled() is True
    assert idle.ensure_sweep_scheduled() is False  # one sweep per time, whoever schedules it
    started = time.time()
    tasks.sweep_idle(shard=limits.IDLE_SEEN_SHARDS - 1, started=started)
    scheduled = queue.get_queue().scheduled_job_registry.get_job_ids()
    assert f"{queue.IDLE_SWEEP_PREFIX}at-{int(started + limits.IDLE_SWEEP_EVERY_SECONDS) // 60}" in scheduled
    tasks.sweep_idle(shard=0, started=started)
    assert queue.get_queue().count == 1  # the next shard's batch


def test_the_command_is_a_dry_run_unless_told(alice, capsys, monkeypatch):
    moment = later()
    monkeypatch.setattr(time, "time", lambda: moment)
    call_command("sweep_idle_timelines")
    assert "1 people" in capsys.readouterr().out
    assert not store.idle.is_dropped(keys.user(alice))
    call_command("sweep_idle_timelines", "--apply")
    assert "Dropped 1 idle homes" in capsys.readouterr().out
    assert store.idle.is_dropped(keys.user(alice))


def test_accounts_made_before_visits_were_recorded_can_be_enrolled(alice, bob, capsys):
    # As an account of an older version: no last-visit entry anywhere.
    get_redis().zrem(keys.seen_shard(alice % limits.IDLE_SEEN_SHARDS), alice)
    get_redis().hdel(keys.user(alice), keys.SEEN_FIELD)
    assert idle.sweep_all(now=later()) == 1  # bob only: nothing finds alice
    call_command("sweep_idle_timelines", "--enroll", "--apply")
    assert "Entered 1 accounts" in capsys.readouterr().out
    assert idle.enroll_all() == 0  # once
    assert idle.sweep_all(now=later()) == 1  # alice, by her sign-up time
    assert store.idle.is_dropped(keys.user(alice))

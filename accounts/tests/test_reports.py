"""Reports as a service: what they accept, which post ids they keep, how duplicates merge (also when they
race), resolving, and that nothing of a report reaches Redis."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from accounts import exceptions, limits, reports
from accounts.models import Report, User
from accounts.services import report, resolve_report, sign_up
from socialsite.redis_client import get_redis
from timelines import selectors, services

pytestmark = pytest.mark.django_db


def person(login: str) -> User:
    return sign_up(login=login, name=login.title(), password=None)


@pytest.fixture
def alice() -> User:
    return person("alice")


@pytest.fixture
def bob() -> User:
    return person("bob")


@pytest.fixture
def carol() -> User:
    return person("carol")


def post(user: User, message: str = "a post") -> int:
    return services.post_status(uid=user.uid, message=message)


def test_a_report_keeps_its_reason_comment_and_the_reported_posts(alice, bob):
    first, second = post(bob, "buy pills"), post(bob, "buy more pills")
    sent = report(
        reporter=alice, reported=bob, reason="spam", comment="  all day long \r\n ", status_ids=[second, first]
    )
    stored = Report.objects.get()
    assert stored == sent
    assert (stored.reporter, stored.reported, stored.reason) == (alice, bob, Report.Reason.SPAM)
    assert stored.status_ids == [second, first]
    assert stored.comment == "all day long"
    assert stored.state == Report.State.OPEN and stored.resolved_at is None and stored.resolved_by is None


def test_the_reasons_are_the_four_of_the_form():
    assert Report.Reason.choices == [
        ("spam", "Spam"),
        ("abuse", "Abuse or harassment"),
        ("illegal", "Illegal content"),
        ("other", "Other"),
    ]


def test_ids_of_posts_that_are_missing_or_not_the_reported_persons_are_dropped(alice, bob, carol):
    own = post(bob, "bob's own")
    carols = post(carol, "carol's")
    deleted = post(bob, "gone soon")
    services.delete_status(uid=bob.uid, status_id=deleted)
    services.repost_status(uid=bob.uid, status_id=carols)
    repost_id = selectors.get_status_messages(uid=bob.uid, timeline="profile")[0].repost_id
    assert repost_id and repost_id != carols

    sent = report(
        reporter=alice,
        reported=bob,
        reason="abuse",
        status_ids=[carols, own, deleted, repost_id, 987654321, own, -3, 0],  # type: ignore[list-item]
    )
    assert sent.status_ids == [own]


def test_a_second_report_while_one_is_open_merges_into_it(alice, bob):
    first, second, third = post(bob, "one"), post(bob, "two"), post(bob, "three")
    report(reporter=alice, reported=bob, reason="spam", comment="spamming", status_ids=[first, second])
    merged = report(reporter=alice, reported=bob, reason="abuse", comment="and now insults", status_ids=[third, first])
    assert Report.objects.count() == 1
    assert merged.status_ids == [first, second, third]
    assert merged.reason == Report.Reason.ABUSE
    assert merged.comment == "spamming\n\nand now insults"
    # Sending the same comment again (a double click) does not repeat it; an empty comment adds nothing.
    again = report(reporter=alice, reported=bob, reason="abuse", comment="and now insults")
    report(reporter=alice, reported=bob, reason="abuse")
    assert Report.objects.get().comment == again.comment == "spamming\n\nand now insults"


def test_merged_comments_stay_within_the_limit_and_keep_what_was_written_first(alice, bob):
    report(reporter=alice, reported=bob, reason="spam", comment="a" * 900)
    merged = report(reporter=alice, reported=bob, reason="spam", comment="b" * 500)
    assert len(merged.comment) == limits.MAX_REPORT_COMMENT_LENGTH
    assert merged.comment.startswith("a" * 900 + "\n\nb") and merged.comment.endswith("…")
    full = report(reporter=alice, reported=bob, reason="spam", comment="c" * 10)
    assert full.comment == merged.comment


def test_merged_status_ids_are_bounded(alice, bob, monkeypatch):
    monkeypatch.setattr(limits, "MAX_REPORTED_STATUSES", 3)
    ids = [post(bob, f"post {n}") for n in range(5)]
    report(reporter=alice, reported=bob, reason="spam", status_ids=ids[:2])
    merged = report(reporter=alice, reported=bob, reason="spam", status_ids=ids[2:])
    assert merged.status_ids == ids[:3]


def test_reports_by_different_people_or_about_different_people_stay_apart(alice, bob, carol):
    report(reporter=alice, reported=bob, reason="spam")
    report(reporter=carol, reported=bob, reason="spam")
    report(reporter=alice, reported=carol, reason="other")
    assert Report.objects.count() == 3


def test_a_report_after_the_open_one_was_resolved_opens_a_new_one(alice, bob, carol):
    first = report(reporter=alice, reported=bob, reason="spam")
    resolve_report(report=first, moderator=carol, note="warned")
    second = report(reporter=alice, reported=bob, reason="spam", comment="again")
    assert second.pk != first.pk and second.state == Report.State.OPEN
    assert Report.objects.filter(state=Report.State.OPEN).count() == 1


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"reason": ""}, exceptions.InvalidReason, exceptions.REASON_REQUIRED),
        ({"reason": "rude"}, exceptions.InvalidReason, exceptions.REASON_REQUIRED),
        ({"reason": None}, exceptions.InvalidReason, exceptions.REASON_REQUIRED),
        ({"reason": "spam", "comment": "x" * 1001}, exceptions.CommentTooLong, exceptions.COMMENT_TOO_LONG),
        ({"reason": "spam", "comment": 42}, exceptions.CommentTooLong, exceptions.COMMENT_TOO_LONG),
    ],
)
def test_bad_input_is_refused_and_writes_nothing(alice, bob, kwargs, error, message):
    with pytest.raises(error) as raised:
        report(reporter=alice, reported=bob, **kwargs)
    assert raised.value.message == message
    assert not Report.objects.exists()


def test_a_comment_of_exactly_the_limit_is_accepted_and_newlines_count_once(alice, bob):
    comment = ("x" * 99 + "\r\n") * 10  # 1,010 characters as a browser sends it, 1,000 as stored
    assert report(reporter=alice, reported=bob, reason="other", comment=comment).comment == comment.replace(
        "\r\n", "\n"
    ).rstrip("\n")


def test_nobody_can_report_themselves(alice):
    with pytest.raises(exceptions.CannotReportSelf) as raised:
        report(reporter=alice, reported=alice, reason="spam", status_ids=[post(alice)])
    assert raised.value.message == exceptions.CANNOT_REPORT_SELF
    assert not Report.objects.exists()


def test_the_service_is_keyword_only(alice, bob):
    with pytest.raises(TypeError):
        report(alice, bob, "spam")  # type: ignore[misc]


def test_resolving_is_idempotent_and_says_whether_it_changed_anything(alice, bob, carol):
    open_report = report(reporter=alice, reported=bob, reason="spam")
    assert resolve_report(report=open_report, moderator=carol, note="  account limited ") is True
    assert open_report.state == Report.State.RESOLVED and open_report.resolution_note == "account limited"
    stored = Report.objects.get()
    assert stored.resolved_by == carol and stored.resolved_at is not None
    first_resolution = (stored.resolved_at, stored.resolution_note)

    stale = Report.objects.get()
    assert resolve_report(report=stale, moderator=alice, note="again") is False
    stored.refresh_from_db()
    assert (stored.resolved_at, stored.resolution_note, stored.resolved_by) == (*first_resolution, carol)
    assert stale.resolved_by_id == carol.pk


def test_a_first_report_that_loses_the_race_to_create_merges_into_the_winner(alice, bob, monkeypatch):
    """Where select_for_update cannot lock a row that does not exist yet (PostgreSQL), two first reports both
    try to create one; the partial unique constraint refuses the second, which then merges."""
    winner = report(reporter=alice, reported=bob, reason="spam", comment="first")
    real = reports._open_report_for_update
    calls = []

    def blind_first(**kwargs):
        calls.append(kwargs)
        return None if len(calls) == 1 else real(**kwargs)

    monkeypatch.setattr(reports, "_open_report_for_update", blind_first)
    with transaction.atomic():  # the caller's own transaction survives the lost race
        merged = report(reporter=alice, reported=bob, reason="abuse", comment="second")
    assert len(calls) == 2 and merged.pk == winner.pk
    assert Report.objects.get().comment == "first\n\nsecond"


@pytest.mark.django_db(transaction=True)
def test_racing_duplicate_reports_merge_into_one():
    alice, bob = person("alice"), person("bob")
    ids = [post(bob, f"post {n}") for n in range(8)]
    barrier = threading.Barrier(8)
    errors: list[BaseException] = []

    def send(n: int) -> None:
        barrier.wait()
        try:
            report(reporter=alice, reported=bob, reason="spam", comment=f"comment {n}", status_ids=[ids[n]])
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()  # the thread's own; a database server would keep it open until the session ends

    threads = [threading.Thread(target=send, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    stored = Report.objects.get()
    assert sorted(stored.status_ids) == sorted(ids)
    assert sorted(stored.comment.split("\n\n")) == sorted(f"comment {n}" for n in range(8))


def test_reports_never_reach_redis(alice, bob):
    status_id = post(bob, "something reportable")
    report(reporter=alice, reported=bob, reason="illegal", comment="a-very-private-marker", status_ids=[status_id])
    report(reporter=alice, reported=bob, reason="abuse", comment="another-private-marker")
    everything = redis_text()
    assert "private-marker" not in everything and "illegal" not in everything


def redis_text() -> str:
    """Every key and value in Redis as text (DUMP would not do: it may compress what it returns)."""
    client = get_redis()
    readers = {
        "string": client.get,
        "hash": client.hgetall,
        "list": lambda key: client.lrange(key, 0, -1),
        "set": client.smembers,
        "zset": lambda key: client.zrange(key, 0, -1, withscores=True),
        "stream": lambda key: client.xrange(key),
    }
    # The dashboard's counters (stats:*) hold numbers and binary HyperLogLogs, never text.
    return " ".join(
        f"{key!r} {readers[client.type(key)](key)!r}" for key in client.scan_iter() if not key.startswith("stats:")
    )

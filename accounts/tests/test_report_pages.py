"""Reporting as a person does it, with Django's test client: the Report links on posts and profiles, the form,
sending it, the thank-you page with Block and Mute, and every bad input answered without a 500 or a write."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import exceptions
from accounts.models import Report, User
from accounts.services import sign_up
from accounts.tests.test_reports import redis_text
from socialsite.redis_client import get_redis
from timelines import selectors, services

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


def logged_in(login: str) -> tuple[Client, User]:
    user = sign_up(login=login, name=login.title(), password=PASSWORD)
    client = Client()
    assert client.login(username=login, password=PASSWORD)
    return client, user


@pytest.fixture
def alice() -> tuple[Client, User]:
    return logged_in("alice")


@pytest.fixture
def bob() -> tuple[Client, User]:
    return logged_in("bob")


def html(response) -> str:
    return response.content.decode()


def radio_labels(page: str) -> list[str]:
    return re.findall(r'<label for="id_reason_\d">\s*<input type="radio"[^>]*>\s*([^<]+?)\s*</label>', page)


def ticked_boxes(page: str) -> list[int]:
    boxes = re.findall(r'<input type="checkbox" name="status_ids" value="(\d+)"([^>]*)>', page)
    return [int(value) for value, attrs in boxes if "checked" in attrs]


def offered_boxes(page: str) -> list[int]:
    return [int(value) for value in re.findall(r'<input type="checkbox" name="status_ids" value="(\d+)"', page)]


def redis_changes() -> int:
    return int(get_redis().info("persistence")["rdb_changes_since_last_save"])


def test_every_post_of_someone_else_and_every_profile_has_report(alice, bob):
    alice_client, alice_user = alice
    _, bob_user = bob
    services.follow_user(uid=alice_user.uid, other_uid=bob_user.uid)
    theirs = services.post_status(uid=bob_user.uid, message="bob says hi")
    mine = services.post_status(uid=alice_user.uid, message="alice says hi")
    home = html(alice_client.get("/"))
    article = re.search(rf'<article[^>]* id="status-{theirs}".*?</article>', home, re.S).group(0)
    assert f'href="/@bob/report?status={theirs}"' in article and ">Report</a>" in article
    own = re.search(rf'<article[^>]* id="status-{mine}".*?</article>', home, re.S).group(0)
    assert "Report" not in own
    assert "/report" not in html(Client().get("/@bob"))  # nobody to report as, when logged out
    profile = html(alice_client.get("/@bob"))
    assert re.search(r'<a href="/@bob/report" class="button small report"[^>]*>Report</a>', profile)
    assert "/@alice/report" not in html(alice_client.get("/@alice"))


def test_the_form_shows_the_four_reasons_a_comment_and_the_persons_latest_posts(alice, bob):
    alice_client, _ = alice
    _, bob_user = bob
    posts = [services.post_status(uid=bob_user.uid, message=f"post number {n}") for n in range(23)]
    reported = posts[0]  # older than the latest 20: still offered, first and ticked
    page = html(alice_client.get(f"/@bob/report?status={reported}"))
    assert radio_labels(page) == ["Spam", "Abuse or harassment", "Illegal content", "Other"]
    assert re.search(r'<label for="id_comment">Comment</label>\s*<textarea name="comment"[^>]*maxlength="1000"', page)
    assert offered_boxes(page) == [reported, *reversed(posts[-20:])]
    assert ticked_boxes(page) == [reported]
    assert re.search(r'<button type="submit" class="primary">Send report</button>', page)
    # From the profile, nothing is ticked.
    assert ticked_boxes(html(alice_client.get("/@bob/report"))) == []


def test_sending_the_form_creates_one_report_and_a_second_merges_into_it(alice, bob):
    alice_client, alice_user = alice
    _, bob_user = bob
    first, second = (services.post_status(uid=bob_user.uid, message=f"post {n}") for n in range(2))
    response = alice_client.post(
        "/@bob/report/send", {"status": first, "reason": "spam", "comment": "ads", "status_ids": [first]}
    )
    assert response.status_code == 302 and response["Location"] == "/@bob/report/sent"
    response = alice_client.post(
        "/@bob/report/send", {"reason": "abuse", "comment": "and rude", "status_ids": [second, first]}
    )
    assert response.status_code == 302
    stored = Report.objects.get()
    assert (stored.reporter, stored.reported, stored.reason) == (alice_user, bob_user, "abuse")
    assert stored.status_ids == [first, second] and stored.comment == "ads\n\nand rude"


def test_the_thank_you_page_offers_block_and_mute(alice, bob):
    alice_client, alice_user = alice
    _, bob_user = bob
    alice_client.post("/@bob/report/send", {"reason": "other"})
    page = html(alice_client.get("/@bob/report/sent"))
    assert "Thanks for your report" in page
    for action, label in (("block", "Block"), ("mute", "Mute")):
        form = re.search(rf'<form method="post" action="/@bob/{action}".*?</form>', page, re.S).group(0)
        assert 'name="next" value="/@bob/report/sent"' in form and f">{label}</button>" in form
    response = alice_client.post("/@bob/mute", {"next": "/@bob/report/sent"})
    assert response.status_code == 302 and response["Location"] == "/@bob/report/sent"
    assert selectors.get_relationship(viewer=alice_user.uid, other=bob_user.uid).muting
    after = html(alice_client.get("/@bob/report/sent"))
    assert "You muted @bob" in after and ">Block</button>" in after and ">Mute</button>" not in after


def test_the_thank_you_page_without_a_report_leads_to_the_form(alice, bob):
    alice_client, _ = alice
    response = alice_client.get("/@bob/report/sent")
    assert response.status_code == 302 and response["Location"] == "/@bob/report"


def test_a_post_in_the_form_that_is_not_the_persons_is_a_form_error(alice, bob):
    alice_client, alice_user = alice
    _, bob_user = bob
    carol = sign_up(login="carol", name="Carol", password=None)
    carols = services.post_status(uid=carol.uid, message="carol's post")
    own = services.post_status(uid=alice_user.uid, message="alice's post")
    for bad in (carols, own, 987654321, "abc", "²", "1" * 40, -1):
        response = alice_client.post("/@bob/report/send", {"reason": "spam", "status_ids": [bad]})
        assert response.status_code == 400, bad
        assert exceptions.POST_NOT_OFFERED in html(response)
    too_many = [services.post_status(uid=bob_user.uid, message=f"p{n}") for n in range(3)] + [carols] * 30
    assert alice_client.post("/@bob/report/send", {"reason": "spam", "status_ids": too_many}).status_code == 400
    assert not Report.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, exceptions.REASON_REQUIRED),
        ({"reason": ""}, exceptions.REASON_REQUIRED),
        ({"reason": "rude"}, exceptions.REASON_REQUIRED),
        ({"reason": "spam", "comment": "x" * 1001}, exceptions.COMMENT_TOO_LONG),
        ({"reason": "spam", "comment": "x" * 5000}, exceptions.COMMENT_TOO_LONG),
    ],
)
def test_bad_form_input_shows_the_form_again_with_the_error_and_writes_nothing(alice, bob, data, message, settings):
    # The rate limiter's counters share this Redis (the cache); they are tested in socialsite/tests.
    settings.RATE_LIMITS_ENABLED = False
    alice_client, _ = alice
    before = redis_changes()
    response = alice_client.post("/@bob/report/send", data)
    assert response.status_code == 400
    assert message in html(response) and "Send report" in html(response)
    assert not Report.objects.exists() and redis_changes() == before


def test_a_comment_of_1000_characters_with_newlines_is_accepted(alice, bob):
    alice_client, _ = alice
    comment = ("x" * 99 + "\r\n") * 10  # the browser counts each newline once, and so does the service
    assert alice_client.post("/@bob/report/send", {"reason": "spam", "comment": comment}).status_code == 302


def test_unknown_people_and_posts_are_404s_and_reporting_yourself_is_a_400(alice, bob):
    alice_client, alice_user = alice
    mine = services.post_status(uid=alice_user.uid, message="mine")
    services.create_user(login="ghost", name="Only in Redis")  # a profile without an account
    for path in ("/@nobody/report", "/@ghost/report", f"/@bob/report?status={mine}", "/@bob/report?status=99999"):
        assert alice_client.get(path).status_code == 404, path
    for path in ("/@nobody/report/send", "/@ghost/report/send"):
        assert alice_client.post(path, {"reason": "spam"}).status_code == 404, path
    assert alice_client.get("/@bob/report?status=abc").status_code == 400
    assert alice_client.get("/@nobody/report/sent").status_code == 404
    response = alice_client.post("/@alice/report/send", {"reason": "spam"})
    assert response.status_code == 400 and exceptions.CANNOT_REPORT_SELF in html(response)
    assert alice_client.get("/@alice/report").status_code == 400
    assert alice_client.get("/@bob/report/send").status_code == 405
    assert alice_client.post("/@bob/report").status_code == 405
    assert not Report.objects.exists()


def test_a_repost_is_reported_as_its_authors_post(alice, bob):
    alice_client, _ = alice
    _, bob_user = bob
    carol = sign_up(login="carol", name="Carol", password=None)
    original = services.post_status(uid=carol.uid, message="carol's words")
    services.follow_user(uid=alice[1].uid, other_uid=bob_user.uid)
    services.repost_status(uid=bob_user.uid, status_id=original)
    entry = selectors.get_status_messages(uid=bob_user.uid, timeline="profile")[0]
    article = re.search(rf'<article[^>]* id="status-{entry.repost_id}".*?</article>', html(alice_client.get("/")), re.S)
    assert f'href="/@carol/report?status={original}"' in article.group(0)
    assert alice_client.get(f"/@bob/report?status={entry.repost_id}").status_code == 404
    assert original not in offered_boxes(html(alice_client.get("/@bob/report")))


def test_posts_the_reporter_may_not_see_are_not_offered(alice, bob):
    alice_client, _ = alice
    _, bob_user = bob
    services.set_private(uid=bob_user.uid, private=True)
    hidden = services.post_status(uid=bob_user.uid, message="followers only")
    assert alice_client.get(f"/@bob/report?status={hidden}").status_code == 404
    page = html(alice_client.get("/@bob/report"))
    assert offered_boxes(page) == [] and "followers only" not in page
    assert alice_client.post("/@bob/report/send", {"reason": "spam", "status_ids": [hidden]}).status_code == 400
    assert alice_client.post("/@bob/report/send", {"reason": "spam"}).status_code == 302  # the account itself


def test_anonymous_visitors_are_sent_to_log_in_and_nothing_is_written(bob):
    anonymous = Client()
    for path in ("/@bob/report", "/@bob/report/sent"):
        response = anonymous.get(path)
        assert response.status_code == 302 and unquote(response["Location"]) == f"/accounts/login/?next={path}"
    response = anonymous.post("/@bob/report/send", {"reason": "spam"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not Report.objects.exists()


def test_report_pages_read_without_writing(alice, bob):
    alice_client, _ = alice
    _, bob_user = bob
    status_id = services.post_status(uid=bob_user.uid, message="a post")
    alice_client.post("/@bob/report/send", {"reason": "spam"})
    before = redis_changes()
    with CaptureQueriesContext(connection) as queries:
        for path in ("/@bob/report", f"/@bob/report?status={status_id}", "/@bob/report/sent", "/@bob", "/"):
            assert alice_client.get(path).status_code == 200, path
    assert redis_changes() == before
    assert not [q["sql"] for q in queries.captured_queries if not q["sql"].lstrip().upper().startswith("SELECT")]


def test_a_report_sent_from_the_form_never_reaches_redis(alice, bob):
    alice_client, _ = alice
    _, bob_user = bob
    status_id = services.post_status(uid=bob_user.uid, message="a post")
    response = alice_client.post(
        "/@bob/report/send", {"reason": "illegal", "comment": "form-private-marker", "status_ids": [status_id]}
    )
    assert response.status_code == 302
    assert "form-private-marker" not in redis_text()
    assert Report.objects.get().comment == "form-private-marker"

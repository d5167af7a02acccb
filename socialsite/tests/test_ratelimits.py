"""Rate limits (socialsite/ratelimits.py) through the real views, on the real Redis cache: each limit lets its
number through, refuses the next with 429 and ``Retry-After``, and opens again in the next window. The tests
move the limiter's clock instead of waiting."""

from __future__ import annotations

import math
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from django.test import Client

from accounts.services import sign_up
from socialsite import ratelimits, redis_client
from timelines import selectors

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
HTMX = {"HTTP_HX_REQUEST": "true"}
TOO_MANY = re.compile(r"Too many attempts, try again in (\d+) minutes?\.")


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(ratelimits, "clock", fake)
    return fake


def client_from(ip: str) -> Client:
    return Client(REMOTE_ADDR=ip)


def logged_in(login: str) -> tuple[Client, int]:
    user = sign_up(login=login, name=login.title(), password=PASSWORD)
    client = Client()
    client.force_login(user)
    return client, int(user.uid)


def assert_refused(response: HttpResponse, *, period: int) -> int:
    """A 429 with a readable wait and a Retry-After of at most one window; returns Retry-After."""
    assert response.status_code == 429
    retry_after = int(response["Retry-After"])
    assert 1 <= retry_after <= period
    minutes = TOO_MANY.search(response.content.decode())
    assert minutes, response.content.decode()[:500]
    assert int(minutes[1]) == math.ceil(retry_after / 60)
    return retry_after


def social_data() -> dict[bytes, bytes]:
    """Every key of the social data with its value (rate-limit counters, in the cache, left out)."""
    snapshot = {}
    for server in redis_client.primaries():
        for key in server.scan_iter():
            raw = key.encode() if isinstance(key, str) else key
            if not raw.startswith(b"cache:"):
                snapshot[raw] = server.dump(key)
    return snapshot


def test_the_limits_default_to_the_documented_rates(settings):
    rates = {
        "RATE_LIMIT_LOGIN_FAILURES_PER_LOGIN": (5, 15 * 60),
        "RATE_LIMIT_LOGIN_FAILURES_PER_IP": (25, 5 * 60),
        "RATE_LIMIT_SIGNUPS_PER_IP": (5, 30 * 60),
        "RATE_LIMIT_POSTS_PER_USER": (300, 3 * 3600),
        "RATE_LIMIT_MEDIA_PER_USER": (120, 30 * 60),
        "RATE_LIMIT_FOLLOWS_PER_USER": (400, 86400),
        "RATE_LIMIT_REPORTS_PER_USER": (20, 3600),
        "RATE_LIMIT_SEARCHES_PER_IP": (60, 60),
    }
    for setting, rate in rates.items():
        assert ratelimits.parse_rate(getattr(settings, setting)) == rate, setting
    assert settings.RATE_LIMITS_ENABLED


@pytest.mark.parametrize("rate", ["5", "5/0m", "five/m", "5/15w", ""])
def test_a_malformed_rate_is_a_configuration_error(rate):
    with pytest.raises(ImproperlyConfigured):
        ratelimits.parse_rate(rate)


@pytest.mark.parametrize(
    ("seconds", "text"), [(1, "1 minute"), (60, "1 minute"), (61, "2 minutes"), (900, "15 minutes")]
)
def test_the_wait_is_told_in_whole_minutes_rounded_up(clock, seconds, text):
    verdict = ratelimits.Verdict(name="posts", limit=1, count=2, reset_at=clock.now + seconds)
    assert verdict.message() == f"Too many attempts, try again in {text}."
    assert verdict.headers()["Retry-After"] == str(seconds)


# --- log-in ------------------------------------------------------------------------------------------------


def log_in(client: Client, login: str, password: str) -> HttpResponse:
    return client.post("/accounts/login/", {"username": login, "password": password})


def test_five_failed_log_ins_refuse_even_the_right_password_until_the_window_ends(clock):
    sign_up(login="alice", name="Alice", password=PASSWORD)
    for attempt in range(5):
        # From a new address each time: the per-login limit cannot be dodged by moving around.
        assert log_in(client_from(f"10.0.0.{attempt + 1}"), "alice", "wrong password").status_code == 400

    client = client_from("10.0.1.1")
    refused = log_in(client, "Alice", PASSWORD)  # any capitalisation is the same account, and the same counter
    retry_after = assert_refused(refused, period=15 * 60)
    assert "_auth_user_id" not in client.session
    assert 'name="username"' in refused.content.decode() and 'value="Alice"' in refused.content.decode()

    clock.advance(retry_after)
    assert log_in(client, "alice", PASSWORD).status_code == 302
    assert "_auth_user_id" in client.session


def test_a_right_password_within_the_limit_logs_in_and_only_failures_count(clock):
    sign_up(login="bob", name="Bob", password=PASSWORD)
    for _ in range(4):
        assert log_in(Client(), "bob", "nope").status_code == 400
    assert log_in(Client(), "bob", PASSWORD).status_code == 302  # the 5th attempt succeeds, and is not counted
    assert log_in(Client(), "bob", "nope").status_code == 400  # the 5th failure is still allowed
    assert_refused(log_in(Client(), "bob", PASSWORD), period=15 * 60)


def test_twenty_five_failures_from_one_address_refuse_that_address_only(clock):
    sign_up(login="zed", name="Zed", password=PASSWORD)
    attacker = client_from("203.0.113.9")
    for attempt in range(25):
        assert log_in(attacker, f"victim{attempt % 5}", "guess").status_code == 400  # 5 per login: within it
    assert_refused(log_in(attacker, "zed", PASSWORD), period=5 * 60)  # a login with no failures, same address
    assert log_in(client_from("198.51.100.1"), "zed", PASSWORD).status_code == 302


def test_log_in_refusals_answer_json_clients_in_json(clock, settings):
    settings.RATE_LIMIT_LOGIN_FAILURES_PER_LOGIN = "1/15m"
    log_in(Client(), "carol", "nope")
    response = Client().post("/accounts/login/", {"username": "carol", "password": "x"}, HTTP_ACCEPT="application/json")
    assert response.status_code == 429
    assert response.json()["error"] == "rate_limited"
    assert TOO_MANY.match(response.json()["message"])
    assert response["X-RateLimit-Limit"] == "1" and response["X-RateLimit-Remaining"] == "0"
    assert int(response["X-RateLimit-Reset"]) == math.ceil(clock.now + int(response["Retry-After"]))


# --- sign-up -----------------------------------------------------------------------------------------------


def sign_up_from(ip: str, login: str, password: str = PASSWORD) -> HttpResponse:
    return client_from(ip).post("/accounts/signup/", {"username": login, "name": login, "password1": password})


def test_five_sign_ups_per_address_then_429_with_the_form(clock):
    assert sign_up_from("10.1.1.1", "weak", password="123").status_code == 400  # a form with errors: not counted
    for number in range(5):
        assert sign_up_from("10.1.1.1", f"new{number}").status_code == 302
    refused = sign_up_from("10.1.1.1", "sixth")
    retry_after = assert_refused(refused, period=30 * 60)
    html = refused.content.decode()
    assert 'value="sixth"' in html and ">Sign up</button>" in html
    assert not get_user_model().objects.filter(username="sixth").exists()
    assert sign_up_from("10.1.1.2", "elsewhere").status_code == 302
    clock.advance(retry_after)
    assert sign_up_from("10.1.1.1", "sixth").status_code == 302


def test_ipv6_clients_are_counted_by_their_64(clock, settings):
    settings.RATE_LIMIT_SIGNUPS_PER_IP = "1/30m"
    assert sign_up_from("2001:db8:1:2::10", "first6").status_code == 302
    assert sign_up_from("2001:db8:1:2:ffff::1", "second6").status_code == 429
    assert sign_up_from("2001:db8:1:3::10", "third6").status_code == 302


# --- posts and replies -------------------------------------------------------------------------------------


def test_posts_and_replies_share_a_limit_and_a_refused_post_leaves_no_trace(clock, settings):
    settings.RATE_LIMIT_POSTS_PER_USER = "3/3h"
    client, uid = logged_in("dana")
    assert client.post("/compose", {"message": "one"}).status_code == 302
    assert client.post("/compose", {"message": ""}).status_code == 400  # nothing posted: not counted
    first = selectors.get_status_messages(uid=uid, timeline="profile", count=10)[0]
    assert client.post(f"/@dana/{first['id']}/reply", {"message": "two"}).status_code == 302
    assert client.post("/compose", {"message": "three"}).status_code == 302

    before = social_data()
    refused = client.post("/compose", {"message": "four, too many"})
    retry_after = assert_refused(refused, period=3 * 3600)
    assert "four, too many</textarea>" in refused.content.decode()  # the post box keeps the text
    assert_refused(client.post(f"/@dana/{first['id']}/reply", {"message": "a reply"}), period=3 * 3600)
    htmx = client.post("/compose", {"message": "four"}, **HTMX)
    assert htmx.status_code == 429 and htmx["Content-Type"].startswith("text/plain")
    assert TOO_MANY.fullmatch(htmx.content.decode())
    assert social_data() == before
    assert selectors.get_user(uid=uid).posts == 3

    clock.advance(retry_after)
    assert client.post("/compose", {"message": "four"}).status_code == 302
    assert selectors.get_user(uid=uid).posts == 4


def test_each_account_has_its_own_post_limit(clock, settings):
    settings.RATE_LIMIT_POSTS_PER_USER = "1/3h"
    erin, _ = logged_in("erin")
    fred, _ = logged_in("fred")
    assert erin.post("/compose", {"message": "hi"}).status_code == 302
    assert erin.post("/compose", {"message": "again"}).status_code == 429
    assert fred.post("/compose", {"message": "hi"}).status_code == 302


def test_edits_count_against_the_posts_limit_and_a_refused_one_changes_nothing(clock, settings):
    """An edit is a post's worth of writing (issue 19): the posts rate limit covers it; the page keeps the text."""
    settings.RATE_LIMIT_POSTS_PER_USER = "2/3h"
    ivy, uid = logged_in("ivy")
    assert ivy.post("/compose", {"message": "a post"}).status_code == 302
    status_id = selectors.get_status_messages(uid=uid, timeline="profile", count=1)[0].id
    assert ivy.post(f"/@ivy/{status_id}/edit", {"message": "a fixed post"}).status_code == 302
    refused = ivy.post(f"/@ivy/{status_id}/edit", {"message": "fixed once more"})
    assert_refused(refused, period=3 * 3600)
    assert "fixed once more</textarea>" in refused.content.decode()
    assert selectors.get_status(status_id=status_id).message == "a fixed post"


def test_messages_count_against_the_posts_limit(clock, settings):
    """A direct message is a post (issue 19): the posts rate limit covers it, on a profile's Message page and in
    a conversation, and a refused one is not sent."""
    settings.RATE_LIMIT_POSTS_PER_USER = "2/3h"
    gail, _ = logged_in("gail")
    logged_in("hank")
    assert gail.post("/compose", {"message": "a post"}).status_code == 302
    sent = gail.post("/@hank/message", {"message": "a message"})
    assert sent.status_code == 302
    refused = gail.post(sent["Location"], {"message": "one too many"})
    assert_refused(refused, period=3 * 3600)
    assert "one too many</textarea>" in refused.content.decode()  # the box keeps the text
    assert_refused(gail.post("/@hank/message", {"message": "another"}), period=3 * 3600)
    assert "one too many" not in gail.get(sent["Location"]).content.decode()


# --- follows -----------------------------------------------------------------------------------------------


def test_follows_are_limited_per_account_and_unfollow_is_not(clock, settings):
    settings.RATE_LIMIT_FOLLOWS_PER_USER = "2/1d"
    client, _ = logged_in("gil")
    for login in ("hal", "ivy", "jon"):
        sign_up(login=login, name=login, password=None)
    assert client.post("/@hal/follow").status_code == 302
    assert client.post("/@gil/follow").status_code == 400  # following yourself: refused by the service, not counted
    assert client.post("/@ivy/follow").status_code == 302
    retry_after = assert_refused(client.post("/@jon/follow"), period=86400)
    assert selectors.get_user_by_login(login="jon").followers == 0
    assert client.post("/@hal/unfollow").status_code == 302
    clock.advance(retry_after)
    assert client.post("/@jon/follow").status_code == 302


# --- search ------------------------------------------------------------------------------------------------


def test_sixty_searches_a_minute_per_address(clock):
    searcher = client_from("10.2.2.2")
    for _ in range(60):
        assert searcher.get("/search", {"q": "hello"}).status_code == 200
    refused = searcher.get("/search", {"q": "hello"})
    retry_after = assert_refused(refused, period=60)
    assert 'name="q"' in refused.content.decode()  # the search form, with the message
    assert client_from("10.2.2.3").get("/search", {"q": "hello"}).status_code == 200
    clock.advance(retry_after)
    assert searcher.get("/search", {"q": "hello"}).status_code == 200


# --- reports ------------------------------------------------------------------------------------------------


def test_reports_are_limited_per_account_and_a_refused_one_is_not_recorded(clock, settings):
    from accounts.models import Report

    settings.RATE_LIMIT_REPORTS_PER_USER = "3/1h"
    reporter, _ = logged_in("kim")
    for login in ("lee", "max", "ned", "oz"):
        sign_up(login=login, name=login.title(), password=None)
    for login in ("lee", "max", "ned"):
        response = reporter.post(f"/@{login}/report/send", {"reason": "spam", "comment": "ads"})
        assert response.status_code == 302
    response = reporter.post("/@oz/report/send", {"reason": "abuse", "comment": "rude words"})
    retry_after = assert_refused(response, period=3600)
    page = response.content.decode()
    assert TOO_MANY.search(page) and "rude words" in page  # the form again, as it was filled in
    assert not Report.objects.filter(reported__username="oz").exists()
    # A form with errors gives its slot back; the next window lets reports through again.
    clock.advance(retry_after)
    assert reporter.post("/@oz/report/send", {"reason": "", "comment": "x"}).status_code == 400
    assert reporter.post("/@oz/report/send", {"reason": "abuse"}).status_code == 302
    assert Report.objects.filter(reported__username="oz").count() == 1


def test_an_unknown_limit_name_fails_at_import_time():
    with pytest.raises(ImproperlyConfigured):
        ratelimits.limit("reportz")


def test_limits_can_be_turned_off(clock, settings):
    settings.RATE_LIMITS_ENABLED = False
    for _ in range(7):
        assert log_in(Client(), "nobody", "nope").status_code == 400


def test_with_the_cache_unreachable_a_limited_page_answers_503(settings, tmp_path):
    # Changing CACHES makes Django drop its cache connections (django.test.signals).
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": f"unix://{tmp_path}/gone.sock"}}
    response = Client().post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 503

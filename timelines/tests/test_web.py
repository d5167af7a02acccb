"""The pages as htmx and people use them: fragments that update in place, empty states, errors, CSRF, and the
cost of a home page in Redis round trips."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.services import sign_up
from socialsite import embedded_cluster
from socialsite.redis_client import is_cluster as on_cluster
from socialsite.tests.people import PASSWORD, logged_in
from timelines import exceptions, limits, selectors, services
from timelines.templatetags.timeline_format import format_relative
from timelines.tests.helpers import redis_traffic

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/"}
# What one home page costs (README, "Using the site"): the page (one script: ids, counters, the viewer's likes
# and reposts, what the privacy policy needs about the page's authors), the viewer's profile hash, the trending
# tags (one ZUNION), and the unread notifications and pending follow requests of the header (one pipeline). The
# same for 1 status or 200, once the process has seen the statuses (the first time, one more: their hashes).
HOME_ROUND_TRIPS = 4
# ... plus five while the page suggests people to follow (selectors.get_suggested_users).
HOME_WITH_SUGGESTIONS_ROUND_TRIPS = HOME_ROUND_TRIPS + 5
CLUSTER_NODES = embedded_cluster.NODES


def status_ids(html: str) -> list[int]:
    return [int(found) for found in re.findall(r'<article class="status[^"]*" id="status-(\d+)"', html)]


def test_a_home_page_costs_the_same_few_round_trips_whatever_its_size():
    client, uid = logged_in("amy")
    _, ben = logged_in("ben")
    services.follow_user(uid=uid, other_uid=ben)
    services.post_status(uid=ben, message="the only post")
    client.get("/")  # warm up: pooled connections, scripts loaded

    with redis_traffic() as small:
        small_page = client.get("/")
    for i in range(limits.DEFAULT_PAGE_SIZE + 5):
        services.post_status(uid=ben, message=f"post {i}")
    with redis_traffic() as first:
        client.get("/")
    with redis_traffic() as full:
        full_page = client.get("/")

    assert len(status_ids(small_page.content.decode())) == 1
    assert len(status_ids(full_page.content.decode())) == limits.DEFAULT_PAGE_SIZE
    if on_cluster():
        # Scripts may not read across slots: the page is read in four pipelines, each one round trip per node
        # holding its keys. A fixed number still.
        assert small["round_trips"] <= full["round_trips"] <= (HOME_ROUND_TRIPS + 3) * CLUSTER_NODES
    else:
        assert small["round_trips"] == full["round_trips"] == HOME_ROUND_TRIPS
        assert first["round_trips"] == HOME_ROUND_TRIPS + 1  # the new statuses' hashes, once
    assert full["commands"] > small["commands"] + limits.DEFAULT_PAGE_SIZE - 5  # pipelined, not free


def test_suggestions_add_a_fixed_number_of_round_trips():
    client, uid = logged_in("abe")
    for login in ("bea", "cy", "di"):
        services.post_status(uid=logged_in(login)[1], message=f"{login} says hi")
    services.post_status(uid=uid, message="my first post")
    client.get("/")
    with redis_traffic() as traffic:
        html = client.get("/").content.decode()
    assert "Who to follow" in html
    if on_cluster():
        assert traffic["round_trips"] <= HOME_WITH_SUGGESTIONS_ROUND_TRIPS * CLUSTER_NODES
    else:
        assert traffic["round_trips"] == HOME_WITH_SUGGESTIONS_ROUND_TRIPS


def test_load_more_with_htmx_returns_only_the_next_posts_and_the_next_pager():
    client, uid = logged_in("cat")
    posted = [services.post_status(uid=uid, message=f"p{i}") for i in range(limits.DEFAULT_PAGE_SIZE + 3)]
    response = client.get(f"/?max_id={posted[4]}", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'hx-swap-oob="beforeend:#timeline"' in html
    assert status_ids(html) == list(reversed(posted[:4]))
    assert "That's everything." in html and "Load more" not in html
    assert "HX-Request" in response["Vary"]

    first_page = client.get("/").content.decode()
    assert re.search(rf'href="\?max_id={posted[3]}" rel="next"', first_page)  # the no-JS link is the same cursor


def test_follow_with_htmx_swaps_the_button_and_the_counts_in_place():
    client, _ = logged_in("dan")
    _, eve = logged_in("eve")
    response = client.post("/@eve/follow", {"counts": "1"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert ">Unfollow</button>" in html and 'id="follow-' in html
    assert f'id="counts-{eve}" hx-swap-oob="true"' in html and re.search(r"<strong>1</strong> follower\b", html)
    assert "now follow @eve" in response["HX-Trigger"]

    response = client.post("/@eve/unfollow", **HTMX)
    html = response.content.decode()
    assert ">Follow</button>" in html and "hx-swap-oob" not in html  # a list row: no counts to refresh


def test_posting_with_htmx_returns_a_fresh_box_and_the_new_post_on_top():
    client, uid = logged_in("fin")
    response = client.post("/compose", {"message": "hello <em>htmx</em>"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'hx-swap-oob="afterbegin:#timeline"' in html and "hello &lt;em&gt;htmx&lt;/em&gt;" in html
    assert "<em>" not in html and "></textarea>" in html  # the box is empty again
    assert selectors.get_user(uid=uid).posts == 1

    response = client.post("/compose", {"message": "z" * 281}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 400 and exceptions.MESSAGE_TOO_LONG in html
    assert "z" * 281 in html and "hx-swap-oob" not in html  # what was typed is kept


def test_deleting_with_htmx_confirms_inline_then_removes_the_post():
    client, uid = logged_in("gus")
    status_id = services.post_status(uid=uid, message="think twice")
    confirm = client.get(f"/statuses/{status_id}/delete", **HTMX).content.decode()
    assert "Delete this post?" in confirm and "csrfmiddlewaretoken" in confirm
    assert f'hx-target="#status-{status_id}" hx-swap="delete"' in confirm
    cancel = client.get(f"/statuses/{status_id}/delete?cancel=1", **HTMX).content.decode()
    assert ">Delete</button>" in cancel and "Delete this post?" not in cancel

    response = client.post(f"/statuses/{status_id}/delete", **HTMX)
    assert response.status_code == 200 and response.content == b""
    assert "Post deleted." in response["HX-Trigger"]
    assert not selectors.status_exists(status_id=status_id)


def test_the_delete_button_shows_on_my_posts_only():
    client, uid = logged_in("hal")
    _, ida = logged_in("ida")
    services.follow_user(uid=uid, other_uid=ida)
    theirs = services.post_status(uid=ida, message="theirs")
    mine = services.post_status(uid=uid, message="mine")
    html = client.get("/").content.decode()
    articles: dict[int, str] = {}
    for found in re.finditer(r'<article class="status[^"]*" id="status-(\d+)"(.*?)</article>', html, flags=re.S):
        articles[int(found.group(1))] = found.group(2)
    assert ">Delete</button>" in articles[mine] and "Delete" not in articles[theirs]


def test_an_empty_home_suggests_recent_authors_then_newcomers():
    client, uid = logged_in("jay")
    _, kim = logged_in("kim")
    _, lou = logged_in("lou")
    _, followed = logged_in("mo")
    services.follow_user(uid=uid, other_uid=followed)
    services.post_status(uid=kim, message="kim was here")
    html = client.get("/").content.decode()
    assert "Nothing here yet." in html and "Who to follow" in html
    suggested = re.findall(r'id="person-\d+"><strong>[^<]*</strong> <span class="login">@(\w+)', html)
    assert suggested == ["kim", "lou"]  # the recent author first; never me or someone I follow
    assert [user.id for user in selectors.get_suggested_users(uid=uid)] == [kim, lou]


def test_unknown_users_get_a_readable_404_page():
    response = Client().get("/@nobody_here")
    assert response.status_code == 404
    assert exceptions.UNKNOWN_USER in response.content.decode() and "Back to the home page" in response.content.decode()


def test_every_htmx_request_carries_the_csrf_token_and_forms_without_it_are_refused():
    sign_up(login="ned", name="Ned", password=PASSWORD)
    client = Client(enforce_csrf_checks=True)
    client.login(username="ned", password=PASSWORD)
    page = client.get("/").content.decode()
    token = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", page).group(1)
    assert client.post("/compose", {"message": "no token"}, **HTMX).status_code == 403
    assert client.post("/compose", {"message": "token"}, HTTP_X_CSRFTOKEN=token, **HTMX).status_code == 200


def test_sign_up_and_log_in_fields_carry_the_expected_labels():
    for path in ("/accounts/signup/", "/accounts/login/"):
        labels = re.findall(r"<label for=\"[^\"]+\">([^<]+)</label>", Client().get(path).content.decode())
        assert (
            "Username" in labels
            and labels.count("Password") == 1
            and not any("password" in label.lower() and label != "Password" for label in labels)
        )


@pytest.mark.parametrize(
    ("age", "text"),
    [(5, "just now"), (90, "1 min ago"), (59 * 60, "59 min ago"), (3 * 3600 + 5, "3 h ago"), (2 * 86400, "2 d ago")],
)
def test_relative_times_read_like_a_person_would_say_them(age, text):
    assert format_relative(1_700_000_000 - age, 1_700_000_000) == text


def test_old_posts_show_their_date():
    assert format_relative(1_600_000_000, 1_700_000_000) == "13 Sep 2020"

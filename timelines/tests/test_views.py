"""The plain pages, driven with Django's test client: sign up, log in, post, follow, delete, page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.services import sign_up
from socialsite.tests.people import PASSWORD, logged_in
from timelines import exceptions, limits, selectors, services

pytestmark = pytest.mark.django_db


def article(response, status_id: int) -> str:
    """The HTML of the one post ``status_id`` on a page: its whole <article> element."""
    found = re.search(rf'<article[^>]* id="status-{status_id}".*?</article>', response.content.decode(), re.S)
    assert found, f"status {status_id} is not on the page"
    return found.group(0)


def status_ids(response) -> list[int]:
    return [int(found) for found in re.findall(r'id="status-(\d+)"', response.content.decode())]


def test_anonymous_visitors_get_a_landing_page_with_log_in_and_sign_up():
    response = Client().get("/")
    assert response.status_code == 200
    assert b"Log in" in response.content and b"Sign up" in response.content


def test_sign_up_post_and_see_it_on_home_and_profile():
    client = Client()
    response = client.post(
        "/accounts/signup/",
        {"username": "dora", "name": "Dora Explorer", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    response = client.post("/compose", {"message": "hello from the browser"})
    assert response.status_code == 302
    home = client.get("/")
    assert b"hello from the browser" in home.content and b"Dora Explorer" in home.content
    profile = Client().get("/@dora")
    assert profile.status_code == 200 and b"hello from the browser" in profile.content


def test_a_display_name_left_empty_at_sign_up_is_the_username():
    client = Client()
    page = client.get("/accounts/signup/").content.decode()
    assert "Display name (optional)" in page
    response = client.post("/accounts/signup/", {"username": "Nadia_7", "name": "  ", "password1": PASSWORD})
    assert response.status_code == 302
    assert selectors.get_user_by_login(login="nadia_7").name == "Nadia_7"
    # A bad username is still the one error shown, not a second one about the name.
    response = Client().post("/accounts/signup/", {"username": "no spaces", "name": "", "password1": PASSWORD})
    assert response.status_code == 400
    assert response.context["form"].errors.keys() == {"username"}


def test_log_in_is_case_insensitive_and_log_out_needs_a_post():
    sign_up(login="Erin", name="Erin", password=PASSWORD)
    client = Client()
    response = client.post("/accounts/login/", {"username": "erin", "password": PASSWORD})
    assert response.status_code == 302
    assert b"@Erin" in client.get("/").content
    assert client.get("/accounts/logout/").status_code == 405
    client.post("/accounts/logout/")
    assert b"Sign up" in client.get("/").content


def test_a_wrong_password_shows_an_error_on_the_page():
    sign_up(login="fay", name="Fay", password=PASSWORD)
    response = Client().post("/accounts/login/", {"username": "fay", "password": "nope"})
    assert response.status_code == 400
    assert b"Please enter a correct username and password" in response.content


def test_bad_posts_show_the_error_and_write_nothing():
    client, uid = logged_in("gil")
    for message, error in (("   ", exceptions.EMPTY_MESSAGE), ("y" * 281, exceptions.MESSAGE_TOO_LONG)):
        response = client.post("/compose", {"message": message})
        assert response.status_code == 400
        assert error.encode() in response.content
    assert selectors.get_user(uid=uid).posts == 0


def test_posts_are_escaped():
    client, _ = logged_in("hal")
    client.post("/compose", {"message": "<script>alert('x')</script>"})
    page = client.get("/").content.decode()
    assert "<script>alert" not in page and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page


def test_follow_and_unfollow_from_a_profile_update_counts_and_home():
    ivy, _ = logged_in("ivy")
    _, jon_uid = logged_in("jon")
    status_id = services.post_status(uid=jon_uid, message="jon here")

    assert ivy.post("/@jon/follow").status_code == 302
    profile = ivy.get("/@jon").content.decode()
    assert "Unfollow" in profile and re.search(r"<strong>1</strong> follower\b", profile)
    assert status_id in status_ids(ivy.get("/"))
    assert b"ivy" in ivy.get("/@jon/followers").content

    ivy.post("/@jon/unfollow")
    assert status_id not in status_ids(ivy.get("/"))
    assert re.search(r"<strong>0</strong> followers", ivy.get("/@jon").content.decode())


def test_following_yourself_is_a_clear_400():
    client, _ = logged_in("kim")
    response = client.post("/@kim/follow")
    assert response.status_code == 400 and exceptions.CANNOT_FOLLOW_SELF.encode() in response.content


def test_delete_asks_for_confirmation_and_only_the_author_may():
    lea, lea_uid = logged_in("lea")
    max_, _ = logged_in("max")
    status_id = services.post_status(uid=lea_uid, message="think twice")

    assert b"Delete this post?" in lea.get(f"/statuses/{status_id}/delete").content
    assert max_.post(f"/statuses/{status_id}/delete").status_code == 403
    assert "think twice" in article(max_.get("/@lea"), status_id)
    assert "Delete" not in article(max_.get("/@lea"), status_id)
    assert "Delete" in article(lea.get("/@lea"), status_id)

    assert lea.post(f"/statuses/{status_id}/delete").status_code == 302
    assert status_id not in status_ids(lea.get("/@lea"))
    assert lea.post(f"/statuses/{status_id}/delete").status_code == 404


def test_anonymous_visitors_see_profiles_and_are_sent_to_log_in_for_the_rest():
    _, uid = logged_in("ned")
    services.post_status(uid=uid, message="public words")
    anonymous = Client()
    assert b"public words" in anonymous.get("/@ned").content
    for method, path in (("post", "/compose"), ("post", "/@ned/follow"), ("get", "/accounts/password/")):
        response = getattr(anonymous, method)(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_unknown_users_and_bad_cursors_are_4xx_not_500():
    client, _ = logged_in("ola")
    assert client.get("/@nobody_here").status_code == 404
    assert client.get("/statuses/999999/delete").status_code == 404
    assert client.get("/?max_id=abc").status_code == 400
    assert client.get("/?max_id=-5").status_code == 400
    assert client.get("/@ola/followers?page=0").status_code == 400


def test_older_posts_link_pages_through_the_whole_timeline_once():
    client, uid = logged_in("pia")
    posted = [services.post_status(uid=uid, message=f"post {i}") for i in range(limits.DEFAULT_PAGE_SIZE * 2 + 5)]
    seen: list[int] = []
    url = "/"
    while url:
        response = client.get(url)
        seen.extend(status_ids(response))
        found = re.search(r'href="(\?max_id=\d+)" rel="next"', response.content.decode())
        url = "/" + found.group(1) if found else None
    assert seen == list(reversed(posted))

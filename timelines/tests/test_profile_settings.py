"""Profile settings (issue 10): ``update_profile`` and the ``/settings/profile`` page edit the display name
and the bio; the bio shows on the profile with its links, mentions and tags."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from socialsite.redis_client import get_redis
from timelines import exceptions, keys, limits, selectors, services
from timelines.tests.test_views import logged_in

pytestmark = pytest.mark.django_db


def test_update_profile_changes_name_and_bio_and_resolves_mentions_of_existing_users(alice, bob):
    assert services.update_profile(uid=alice, name="  Ada   Lovelace ", bio="Hi @Bob and @nobody, see #redis\n")
    me = selectors.get_user(uid=alice)
    assert (me.name, me.bio, me.bio_mentions) == ("Ada Lovelace", "Hi @Bob and @nobody, see #redis", ("bob",))
    assert services.update_profile(uid=alice, bio="Hi @Bob and @nobody, see #redis") is False  # nothing new
    assert services.update_profile(uid=alice, name="Ada Lovelace") is False
    services.update_profile(uid=alice, bio="")
    assert (selectors.get_user(uid=alice).bio, selectors.get_user(uid=alice).bio_mentions) == ("", ())
    assert selectors.get_user(uid=alice).name == "Ada Lovelace"


def test_update_profile_refuses_bad_values_and_writes_nothing(alice):
    before = get_redis().hgetall(keys.user(alice))
    with pytest.raises(exceptions.InvalidBio):
        services.update_profile(uid=alice, name="New Name", bio="x" * (limits.MAX_BIO_LENGTH + 1))
    with pytest.raises(exceptions.InvalidName):
        services.update_profile(uid=alice, name="\u200b", bio="fine")
    with pytest.raises(exceptions.UnknownUser):
        services.update_profile(uid=999_999, bio="hello")
    assert get_redis().hgetall(keys.user(alice)) == before
    assert not get_redis().exists(keys.user(999_999))


def test_a_bio_is_cleaned_like_a_post_and_may_be_invisible_only(alice):
    services.update_profile(uid=alice, bio="\u200b\ufeff ")
    assert selectors.get_user(uid=alice).bio == ""
    services.update_profile(uid=alice, bio="e\u0301 line\r\nnext\x07")
    assert selectors.get_user(uid=alice).bio == "\u00e9 line\nnext"
    services.update_profile(uid=alice, bio="y" * limits.MAX_BIO_LENGTH)
    assert len(selectors.get_user(uid=alice).bio) == limits.MAX_BIO_LENGTH


def test_posts_keep_the_name_their_author_had_when_posting(alice):
    status_id = services.post_status(uid=alice, message="before the rename")
    services.update_profile(uid=alice, name="Ada Lovelace")
    assert selectors.get_status(status_id=status_id).name == "Alice Liddell"


def test_the_settings_page_saves_name_and_bio_and_the_profile_shows_the_bio_with_links():
    client, uid = logged_in("rita", "Rita")
    logged_in("sam")
    page = client.get("/settings/profile").content.decode()
    assert re.search(r'<label for="id_name">Display name</label>', page)
    assert re.search(r'<label for="id_bio">Bio</label>', page)
    assert re.search(r'<button type="submit"[^>]*>Save</button>', page)
    assert re.search(r'href="/settings/profile"[^>]*>Settings</a>', page)

    bio = "Friend of @sam and @ghost. #Redis fan <b>: https://example.com/x"
    response = client.post("/settings/profile", {"name": "Rita Moreno", "bio": bio})
    assert response.status_code == 302 and response["Location"] == "/settings/profile"
    assert b"Profile saved." in client.get("/settings/profile").content

    profile = Client().get("/@rita").content.decode()
    assert "Rita Moreno" in profile
    assert '<a class="mention" href="/@sam">@sam</a>' in profile
    assert "@ghost" in profile and 'href="/@ghost"' not in profile
    assert '<a class="tag" href="/tags/redis">#Redis</a>' in profile
    assert '<a href="https://example.com/x" rel="nofollow noopener noreferrer ugc">' in profile
    assert "&lt;b&gt;" in profile and "<b>:" not in profile
    assert selectors.get_user(uid=uid).bio == bio


def test_the_settings_page_shows_validation_errors_and_changes_nothing():
    client, uid = logged_in("tess", "Tess")
    response = client.post("/settings/profile", {"name": "Tess", "bio": "z" * (limits.MAX_BIO_LENGTH + 1)})
    assert response.status_code == 400 and exceptions.BIO_TOO_LONG.encode() in response.content
    response = client.post("/settings/profile", {"name": "\u200b\u200d", "bio": "ok"})
    assert response.status_code == 400 and exceptions.INVALID_NAME.encode() in response.content
    response = client.post("/settings/profile", {"bio": "no name at all"})
    assert response.status_code == 400
    me = selectors.get_user(uid=uid)
    assert (me.name, me.bio) == ("Tess", "")


def test_settings_need_a_log_in():
    response = Client().get("/settings/profile")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert Client().post("/settings/profile", {"name": "x"}).status_code == 302

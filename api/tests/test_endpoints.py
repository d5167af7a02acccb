"""The endpoints as a client sees them: Mastodon's entities and their fields, errors as JSON 4xx for bad input,
``Link`` pagination, ``Idempotency-Key``, and the site's rate limit on posts applied to the API."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings

from api.tests.helpers import Api, person, token_for
from timelines import selectors, services, uris
from timelines.services import moderation

pytestmark = pytest.mark.django_db

DATE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


@pytest.fixture
def ada() -> Api:
    person("ada")
    return Api(token_for("ada"))


def test_instance_describes_the_site_with_its_real_limits():
    body = Api(None).get("/api/v2/instance").json()
    assert body["version"].startswith("4.3.0 (compatible; socialsite ")
    assert body["configuration"]["statuses"]["max_characters"] == 280
    v1 = Api(None).get("/api/v1/instance/").json()
    assert v1["configuration"]["polls"]["max_options"] == 0


def test_posting_returns_a_mastodon_status(ada):
    bob = person("bob")
    response = ada.post("/api/v1/statuses", {"status": "Hello @bob about #Redis"})
    assert response.status_code == 200, response.content
    status = response.json()
    assert status["id"].isdigit()
    assert DATE.match(status["created_at"])
    assert status["visibility"] == "public"
    assert status["account"]["username"] == "ada" and status["account"]["id"].isdigit()
    assert status["mentions"] == [
        {"id": str(bob.uid), "username": "bob", "acct": "bob", "url": "http://testserver/@bob"}
    ]
    assert status["tags"] == [{"name": "redis", "url": "http://testserver/tags/redis"}]
    assert 'class="u-url mention"' in status["content"] and 'class="mention hashtag"' in status["content"]
    assert status["url"] == f"http://testserver/@ada/{status['id']}"
    assert status["media_attachments"] == [] and status["emojis"] == []
    assert status["favourited"] is False and status["reblogged"] is False


def test_a_post_too_long_is_422_and_nothing_is_posted(ada):
    response = ada.post("/api/v1/statuses", {"status": "x" * 281})
    assert response.status_code == 422
    assert response.json()["error"].startswith("Validation failed: ")
    assert ada.get("/api/v1/accounts/verify_credentials").json()["statuses_count"] == 0


def test_an_unknown_visibility_is_422(ada):
    response = ada.post("/api/v1/statuses", {"status": "hi", "visibility": "everyone"})
    assert response.status_code == 422


def test_mastodons_four_visibilities(ada):
    person("bob")
    person("carol")
    bob, carol = Api(token_for("bob")), Api(token_for("carol"))
    ada_id = ada.get("/api/v1/accounts/verify_credentials").json()["id"]
    bob.post(f"/api/v1/accounts/{ada_id}/follow")
    posted = {
        level: ada.post("/api/v1/statuses", {"status": f"@bob {level}", "visibility": level}).json()
        for level in ("public", "unlisted", "private", "direct")
    }
    assert {level: status["visibility"] for level, status in posted.items()} == {level: level for level in posted}
    public_ids = [item["id"] for item in Api(None).get("/api/v1/timelines/public").json()]
    assert public_ids == [posted["public"]["id"]]
    assert Api(None).get(f"/api/v1/statuses/{posted['unlisted']['id']}").status_code == 200
    for level in ("private", "direct"):
        assert bob.get(f"/api/v1/statuses/{posted[level]['id']}").status_code == 200
        assert carol.get(f"/api/v1/statuses/{posted[level]['id']}").status_code == 404


def test_the_same_idempotency_key_posts_once(ada):
    first = ada.post("/api/v1/statuses", {"status": "only once"}, **{"Idempotency-Key": "k1"})
    again = ada.post("/api/v1/statuses", {"status": "only once"}, **{"Idempotency-Key": "k1"})
    assert first.json()["id"] == again.json()["id"]
    other = ada.post("/api/v1/statuses", {"status": "only once"}, **{"Idempotency-Key": "k2"})
    assert other.json()["id"] != first.json()["id"]
    assert ada.get("/api/v1/accounts/verify_credentials").json()["statuses_count"] == 2


@override_settings(RATE_LIMIT_POSTS_PER_USER="2/1h")
def test_the_sites_post_limit_applies_to_the_api(ada):
    assert ada.post("/api/v1/statuses", {"status": "one"}).status_code == 200
    assert ada.post("/api/v1/statuses", {"status": "two"}).status_code == 200
    refused = ada.post("/api/v1/statuses", {"status": "three"})
    assert refused.status_code == 429
    assert "error" in refused.json() and refused["X-RateLimit-Limit"] == "2"


@pytest.mark.parametrize("bad", ["abc", "²", "9" * 5000, "-1", "0"])
def test_bad_ids_are_404_record_not_found(ada, bad):
    for path in (f"/api/v1/statuses/{bad}", f"/api/v1/accounts/{bad}", f"/api/v1/statuses/{bad}/context"):
        response = ada.get(path)
        assert response.status_code == 404, path
        assert response.json() == {"error": "Record not found"}


@pytest.mark.parametrize("query", [{"limit": "abc"}, {"max_id": "x"}, {"since_id": "²"}])
def test_bad_paging_parameters_are_400(ada, query):
    response = ada.get("/api/v1/timelines/home", query)
    assert response.status_code == 400
    assert "error" in response.json()


def test_home_is_paged_by_link_headers_without_repeats_or_gaps(ada):
    ids = [ada.post("/api/v1/statuses", {"status": f"post {n}"}).json()["id"] for n in range(5)]
    seen: list[str] = []
    response = ada.get("/api/v1/timelines/home", {"limit": "2"})
    pages = 0
    while True:
        pages += 1
        seen += [status["id"] for status in response.json()]
        link = response.get("Link", "")
        assert 'rel="prev"' in link or not response.json()
        match = re.search(r'<([^>]+)>; rel="next"', link)
        if not match:
            break
        assert link.index('rel="next"') < link.index('rel="prev"')
        response = ada.get(match.group(1).removeprefix("http://testserver"))
    assert seen == list(reversed(ids))
    assert pages == 3


def test_a_huge_limit_is_clamped(ada):
    ada.post("/api/v1/statuses", {"status": "one"})
    response = ada.get("/api/v1/timelines/home", {"limit": "100000"})
    assert response.status_code == 200 and len(response.json()) == 1


def test_follow_favourite_reblog_and_notifications(ada):
    bob_user = person("bob")
    bob = Api(token_for("bob"))
    ada_id = ada.get("/api/v1/accounts/verify_credentials").json()["id"]
    relation = bob.post(f"/api/v1/accounts/{ada_id}/follow").json()
    assert relation["following"] is True and relation["id"] == ada_id
    status = ada.post("/api/v1/statuses", {"status": "for my followers"}).json()
    home = bob.get("/api/v1/timelines/home").json()
    assert [item["id"] for item in home] == [status["id"]]
    liked = bob.post(f"/api/v1/statuses/{status['id']}/favourite").json()
    assert liked["favourited"] is True and liked["favourites_count"] == 1
    reblog = bob.post(f"/api/v1/statuses/{status['id']}/reblog").json()
    assert reblog["reblog"]["id"] == status["id"] and reblog["account"]["username"] == "bob"
    assert reblog["reblogged"] is True
    kinds = [item["type"] for item in ada.get("/api/v1/notifications").json()]
    assert kinds == ["reblog", "favourite", "follow"]
    only = ada.get("/api/v1/notifications", {"types[]": "follow"}).json()
    assert [item["account"]["id"] for item in only] == [str(bob_user.uid)]
    unliked = bob.post(f"/api/v1/statuses/{status['id']}/unfavourite").json()
    assert unliked["favourited"] is False
    relations = ada.get("/api/v1/accounts/relationships", {"id[]": [str(bob_user.uid)]}).json()
    assert relations[0]["followed_by"] is True and relations[0]["following"] is False


def test_context_lookup_and_account_statuses(ada):
    person("bob")
    bob = Api(token_for("bob"))
    root = ada.post("/api/v1/statuses", {"status": "root"}).json()
    reply = bob.post("/api/v1/statuses", {"status": "@ada a reply", "in_reply_to_id": root["id"]}).json()
    assert reply["in_reply_to_id"] == root["id"]
    context = ada.get(f"/api/v1/statuses/{reply['id']}/context").json()
    assert [item["id"] for item in context["ancestors"]] == [root["id"]]
    assert [item["id"] for item in ada.get(f"/api/v1/statuses/{root['id']}/context").json()["descendants"]] == [
        reply["id"]
    ]
    found = ada.get("/api/v1/accounts/lookup", {"acct": "@bob"}).json()
    assert found["username"] == "bob"
    assert ada.get("/api/v1/accounts/lookup", {"acct": "nobody"}).status_code == 404
    mine = ada.get(f"/api/v1/accounts/{found['id']}/statuses", {"exclude_replies": "true"}).json()
    assert mine == []
    assert [s["id"] for s in ada.get(f"/api/v1/accounts/{found['id']}/statuses").json()] == [reply["id"]]


def test_deleting_returns_the_post_with_its_text_and_it_is_gone(ada):
    status = ada.post("/api/v1/statuses", {"status": "oops"}).json()
    deleted = ada.delete(f"/api/v1/statuses/{status['id']}")
    assert deleted.status_code == 200 and deleted.json()["text"] == "oops"
    assert ada.get(f"/api/v1/statuses/{status['id']}").status_code == 404


def test_tag_timeline_lists_public_posts_of_the_tag(ada):
    status = ada.post("/api/v1/statuses", {"status": "about #Django"}).json()
    body = Api(None).get("/api/v1/timelines/tag/django").json()
    assert [item["id"] for item in body] == [status["id"]]


def test_the_public_timeline_lists_the_sites_public_posts(ada):
    first = ada.post("/api/v1/statuses", {"status": "one"}).json()
    ada.post("/api/v1/statuses", {"status": "only followers", "visibility": "private"})
    second = ada.post("/api/v1/statuses", {"status": "two"}).json()
    body = Api(None).get("/api/v1/timelines/public", {"local": "true"}).json()
    assert [item["id"] for item in body] == [second["id"], first["id"]]
    assert Api(None).get("/api/v1/timelines/public", {"remote": "true"}).json() == []


def test_a_wrong_method_is_a_json_405(ada):
    response = ada.client.put("/api/v1/timelines/home", headers=ada.headers)
    assert response.status_code == 405
    assert "error" in response.json()


def test_start_up_endpoints_answer_empty_lists():
    for path in ("/api/v1/custom_emojis", "/api/v1/announcements", "/api/v2/filters"):
        assert Api(None).get(path).json() == []


def test_a_suspended_account_token_is_refused_at_once(ada):
    uid = int(ada.get("/api/v1/accounts/verify_credentials").json()["id"])
    moderation.suspend_user(uid=uid)
    response = ada.get("/api/v1/timelines/home")
    assert response.status_code == 403
    assert response.json() == {"error": "Your login is currently disabled"}


def test_every_answer_carries_the_rate_limit_headers(ada):
    response = ada.get("/api/v1/timelines/home")
    assert response["X-RateLimit-Limit"] == "300"
    assert int(response["X-RateLimit-Remaining"]) == 299
    assert DATE.match(response["X-RateLimit-Reset"])
    missing = ada.get("/api/v1/statuses/123456")
    assert missing.status_code == 404 and missing["X-RateLimit-Remaining"] == "298"


def test_calls_are_limited_per_token(ada):
    person("bob")
    bob = Api(token_for("bob"))
    with override_settings(RATE_LIMIT_API_PER_TOKEN="3/5m"):
        for _ in range(3):
            assert ada.get("/api/v1/timelines/home").status_code == 200
        refused = ada.get("/api/v1/timelines/home")
        assert refused.status_code == 429
        assert "error" in refused.json() and refused["X-RateLimit-Remaining"] == "0"
        # Someone else's token has its own budget.
        assert bob.get("/api/v1/timelines/home").status_code == 200


def test_search_finds_people_tags_and_posts(ada):
    post = ada.post("/api/v1/statuses", {"status": "learning #redis streams"}).json()
    ada.post("/api/v1/statuses", {"status": "secret streams", "visibility": "private"})
    body = Api(None).get("/api/v2/search", {"q": "streams"}).json()
    assert [item["id"] for item in body["statuses"]] == [post["id"]]
    people = ada.get("/api/v2/search", {"q": "ad", "type": "accounts"}).json()
    assert [item["username"] for item in people["accounts"]] == ["ada"] and people["statuses"] == []
    tags = ada.get("/api/v2/search", {"q": "#red", "type": "hashtags"}).json()
    assert [item["name"] for item in tags["hashtags"]] == ["redis"]
    assert ada.get("/api/v2/search", {"q": "ad", "type": "accounts", "offset": "5"}).json()["accounts"] == []
    assert ada.get("/api/v2/search", {"q": "x", "type": "nonsense"}).status_code == 400


def test_followers_and_following_are_paged_and_private_ones_hidden(ada):
    ada_id = ada.get("/api/v1/accounts/verify_credentials").json()["id"]
    for login in ("bob", "carol", "dave"):
        person(login)
        Api(token_for(login)).post(f"/api/v1/accounts/{ada_id}/follow")
    first = ada.get(f"/api/v1/accounts/{ada_id}/followers", {"limit": "2"})
    assert [item["username"] for item in first.json()] == ["dave", "carol"]
    next_url = re.search(r'<([^>]+)>; rel="next"', first["Link"]).group(1)
    second = ada.get(next_url.removeprefix("http://testserver"))
    assert [item["username"] for item in second.json()] == ["bob"] and "Link" not in second
    bob_id = second.json()[0]["id"]
    assert [item["username"] for item in ada.get(f"/api/v1/accounts/{bob_id}/following").json()] == ["ada"]
    ada.client.patch(
        "/api/v1/accounts/update_credentials", {"locked": True}, content_type="application/json", headers=ada.headers
    )
    person("mallory")
    assert Api(token_for("mallory")).get(f"/api/v1/accounts/{ada_id}/followers").json() == []


def test_unread_count_one_notification_and_preferences(ada):
    person("bob")
    bob = Api(token_for("bob"))
    ada_id = ada.get("/api/v1/accounts/verify_credentials").json()["id"]
    bob.post(f"/api/v1/accounts/{ada_id}/follow")
    assert ada.get("/api/v1/notifications/unread_count").json() == {"count": 1}
    newest = ada.get("/api/v1/notifications").json()[0]
    one = ada.get(f"/api/v1/notifications/{newest['id']}").json()
    assert one["type"] == "follow" and one["account"]["username"] == "bob"
    assert bob.get(f"/api/v1/notifications/{newest['id']}").status_code == 404
    assert ada.get("/api/v1/preferences").json()["posting:default:visibility"] == "public"


def test_favourited_by_and_reblogged_by_list_who_reacted(ada):
    status = ada.post("/api/v1/statuses", {"status": "react to this"}).json()
    for login in ("bob", "carol"):
        person(login)
        api = Api(token_for(login))
        api.post(f"/api/v1/statuses/{status['id']}/favourite")
        if login == "carol":
            api.post(f"/api/v1/statuses/{status['id']}/reblog")
    liked = ada.get(f"/api/v1/statuses/{status['id']}/favourited_by").json()
    assert [item["username"] for item in liked] == ["carol", "bob"]
    reposted = Api(None).get(f"/api/v1/statuses/{status['id']}/reblogged_by").json()
    assert [item["username"] for item in reposted] == ["carol"]
    assert ada.get("/api/v1/statuses/999999/favourited_by").status_code == 404


def test_the_notifications_marker_is_the_sites_read_mark(ada):
    ada_id = ada.get("/api/v1/accounts/verify_credentials").json()["id"]
    for login in ("bob", "carol"):
        person(login)
        Api(token_for(login)).post(f"/api/v1/accounts/{ada_id}/follow")
    newest, older = [item["id"] for item in ada.get("/api/v1/notifications").json()]
    marker = ada.get("/api/v1/markers", {"timeline[]": "notifications"}).json()
    assert marker["notifications"]["last_read_id"] == "0"
    moved = ada.post("/api/v1/markers", {"notifications[last_read_id]": older}).json()
    assert moved["notifications"]["last_read_id"] == older
    assert ada.get("/api/v1/notifications/unread_count").json() == {"count": 1}
    assert selectors.get_header_counts(uid=int(ada_id)).unread_notifications == 1
    # The site's page marks everything read; a marker never moves back.
    services.mark_notifications_read(uid=int(ada_id))
    back = ada.post("/api/v1/markers", {"notifications[last_read_id]": older}).json()
    assert back["notifications"]["last_read_id"] == newest
    assert ada.get("/api/v1/notifications/unread_count").json() == {"count": 0}
    assert ada.post("/api/v1/markers", {"notifications[last_read_id]": "x"}).status_code == 422


def test_nodeinfo_and_webfinger_describe_the_site_and_its_people(ada):
    links = Api(None).get("/.well-known/nodeinfo").json()["links"]
    assert links[0]["href"] == "http://testserver/nodeinfo/2.0"
    info = Api(None).get("/nodeinfo/2.0").json()
    assert info["software"]["name"] == "socialsite" and info["usage"]["users"]["total"] == 1
    found = Api(None).get("/.well-known/webfinger", {"resource": "acct:ada@testserver"})
    assert found["Content-Type"] == "application/jrd+json"
    # The subject names the site's canonical domain (timelines.uris), whatever host the request used.
    assert found.json()["subject"] == f"acct:ada@{uris.local_domain()}"
    assert found.json()["links"][0]["href"] == "http://testserver/@ada"
    assert {"rel": "self", "type": "application/activity+json", "href": uris.account_uri("ada")} in found.json()[
        "links"
    ]
    assert Api(None).get("/.well-known/webfinger", {"resource": "acct:nobody"}).status_code == 404
    assert Api(None).get("/.well-known/webfinger", {"resource": "acct:ada@elsewhere.example"}).status_code == 404
    assert Api(None).get("/.well-known/webfinger").status_code == 400


def test_dismissing_and_clearing_notifications(ada):
    ada_id = ada.get("/api/v1/accounts/verify_credentials").json()["id"]
    for login in ("bob", "carol", "dave"):
        person(login)
        Api(token_for(login)).post(f"/api/v1/accounts/{ada_id}/follow")
    _, middle, _ = [item["id"] for item in ada.get("/api/v1/notifications").json()]
    bob = Api(token_for("bob"))
    assert bob.post(f"/api/v1/notifications/{middle}/dismiss").status_code == 404  # not in bob's feed
    assert ada.post(f"/api/v1/notifications/{middle}/dismiss").json() == {}
    assert middle not in [item["id"] for item in ada.get("/api/v1/notifications").json()]
    assert ada.get("/api/v1/notifications/unread_count").json() == {"count": 2}
    assert ada.post("/api/v1/notifications/clear").json() == {}
    assert ada.get("/api/v1/notifications").json() == []
    assert ada.get("/api/v1/notifications/unread_count").json() == {"count": 0}


def test_uris_are_canonical_and_urls_are_this_hosts_pages(ada, settings):
    settings.SOCIALSITE_DOMAIN = "social.example"
    status = ada.post("/api/v1/statuses", {"status": "where am I"}).json()
    assert status["uri"] == f"https://social.example/@ada/{status['id']}"
    assert status["url"] == f"http://testserver/@ada/{status['id']}"
    assert status["account"]["uri"] == "https://social.example/@ada"

"""The leak test of issue 11 on the client API: alice is private with approved follower bob; carol is a stranger,
dave blocked alice, frank waits for his request, and anonymous callers know nobody. Every API read (the list is
checked against the IDOR test's inventory, so a new read endpoint must be added here) shows carol, dave, frank
and anonymous callers none of alice's private items, while bob gets them in his home and on her profile."""

from __future__ import annotations

import json
from typing import Any

import pytest

from api.tests.helpers import Api, person, token_for
from socialsite.tests.idor_api import API_READS
from timelines import services
from timelines.tests.leaks import SECRET, TAG, Items, People, alice_speaks, make_people, public_posts

pytestmark = pytest.mark.django_db


def ids_in(body: Any) -> set[str]:
    """Every status id a JSON answer carries (statuses, reblogs, notifications' statuses, contexts)."""
    found: set[str] = set()
    if isinstance(body, list):
        for item in body:
            found |= ids_in(item)
    elif isinstance(body, dict):
        if "content" in body and "id" in body:
            found.add(str(body["id"]))
        for value in body.values():
            if isinstance(value, dict | list):
                found |= ids_in(value)
    return found


def reads(people: People, items: Items, lists: list[int]) -> dict[str, list[str]]:
    """Each API read endpoint, by its URL name, with the paths that aim it at alice's items."""
    alice = people.alice
    posts = [items.bob_post, items.carol_post, items.erin_post, *items.private_ids]
    return {
        "api:server_metadata": ["/.well-known/oauth-authorization-server"],
        "api:verify_app": ["/api/v1/apps/verify_credentials"],
        "api:instance_v1": ["/api/v1/instance"],
        "api:instance_v2": ["/api/v2/instance"],
        "api:custom_emojis": ["/api/v1/custom_emojis"],
        "api:announcements": ["/api/v1/announcements"],
        "api:filters_v1": ["/api/v1/filters"],
        "api:filters_v2": ["/api/v2/filters"],
        "api:verify_credentials": ["/api/v1/accounts/verify_credentials"],
        "api:account_lookup": ["/api/v1/accounts/lookup?acct=alice"],
        "api:relationships": [f"/api/v1/accounts/relationships?id[]={alice}"],
        "api:account": [f"/api/v1/accounts/{alice}"],
        "api:account_statuses": [
            f"/api/v1/accounts/{alice}/statuses",
            f"/api/v1/accounts/{people.bob}/statuses",
            f"/api/v1/accounts/{alice}/statuses?exclude_replies=true",
        ],
        "api:status": [f"/api/v1/statuses/{status_id}" for status_id in posts],
        "api:context": [f"/api/v1/statuses/{status_id}/context" for status_id in posts],
        "api:status_history": [f"/api/v1/statuses/{status_id}/history" for status_id in posts],
        "api:status_source": [f"/api/v1/statuses/{status_id}/source" for status_id in posts],
        "api:home": ["/api/v1/timelines/home"],
        "api:public": ["/api/v1/timelines/public"],
        "api:tag": [f"/api/v1/timelines/tag/{TAG}"],
        "api:notifications": ["/api/v1/notifications"],
        "api:blocks": ["/api/v1/blocks"],
        "api:mutes": ["/api/v1/mutes"],
        "api:followers": [f"/api/v1/accounts/{alice}/followers", f"/api/v1/accounts/{people.bob}/followers"],
        "api:following": [f"/api/v1/accounts/{alice}/following"],
        "api:unread_count": ["/api/v1/notifications/unread_count"],
        # Every notification id there is, whosever: only the reader's own may answer.
        "api:notification": [f"/api/v1/notifications/{n}" for n in range(1, 40)],
        "api:search": [f"/api/v2/search?q={SECRET}", "/api/v2/search?q=plans", f"/api/v2/search?q=%23{TAG}"],
        "api:preferences": ["/api/v1/preferences"],
        "api:markers": ["/api/v1/markers?timeline[]=notifications"],
        "api:favourited_by": [f"/api/v1/statuses/{status_id}/favourited_by" for status_id in posts],
        "api:reblogged_by": [f"/api/v1/statuses/{status_id}/reblogged_by" for status_id in posts],
        "api:follow_requests": ["/api/v1/follow_requests"],
        "api:nodeinfo_links": ["/.well-known/nodeinfo"],
        "api:nodeinfo": ["/nodeinfo/2.0"],
        "api:webfinger": ["/.well-known/webfinger?resource=acct:alice"],
        "api:lists": ["/api/v1/lists"],
        "api:list": [f"/api/v1/lists/{list_id}" for list_id in lists],
        "api:list_accounts": [f"/api/v1/lists/{list_id}/accounts" for list_id in lists],
        "api:list_timeline": [f"/api/v1/timelines/list/{list_id}" for list_id in lists],
        "api:bookmarks": ["/api/v1/bookmarks"],
        "api:conversations": ["/api/v1/conversations"],
        "api:favourites": ["/api/v1/favourites"],
        "api:tag_detail": [f"/api/v1/tags/{TAG}"],
        "api:followed_tags": ["/api/v1/followed_tags"],
        "api:openapi": ["/api/openapi.json"],
        "api:account_search": [f"/api/v1/accounts/search?q={SECRET}", "/api/v1/accounts/search?q=alice"],
        "api:familiar_followers": [f"/api/v1/accounts/familiar_followers?id[]={alice}"],
    }


def test_no_api_read_shows_alices_private_items_to_others():
    people = make_people()
    # Carol keeps a list with alice in it, bob one too (his, with her private posts, which nobody else may read).
    lists = []
    for reader in ("carol", "bob"):
        lists.append(services.create_user_list(uid=people.uids[reader], name="people"))
        services.follow_user_list(uid=people.uids[reader], other_uid=people.alice, list_id=lists[-1])
    items = alice_speaks(people, *public_posts(people))
    services.like_status(uid=people.bob, status_id=items.post)
    frank = person("frank")
    assert services.follow_user(uid=frank.uid, other_uid=people.alice) == services.REQUESTED
    readers = {
        "carol": Api(token_for("carol")),
        "dave": Api(token_for("dave")),
        "frank": Api(token_for("frank")),
        "anonymous": Api(None),
    }
    endpoints = reads(people, items, lists)
    # These endpoints read (GET) and write: the IDOR test lists them with the writes.
    both = {"api:status", "api:markers", "api:lists", "api:list", "api:list_accounts"}
    assert set(endpoints) == API_READS | both, "an API read endpoint this test does not try"
    private = {str(status_id) for status_id in items.private_ids}
    leaks = []
    for name, api in readers.items():
        for paths in endpoints.values():
            for path in paths:
                response = api.get(path)
                assert response.status_code < 500, (name, path)
                body = response.json()
                text = json.dumps(body)
                shown = ids_in(body) & private
                if SECRET in text or shown:
                    leaks.append(f"{name} gets {sorted(shown) or SECRET} from {path}")
        for status_id in items.private_ids:
            for action in ("", "/context", "/favourited_by", "/reblogged_by", "/history", "/source"):
                path = f"/api/v1/statuses/{status_id}{action}"
                response = api.get(path)
                if response.status_code != 404 or response.json() != {"error": "Record not found"}:
                    leaks.append(f"{name} gets {response.status_code} from {path}")
    assert leaks == [], "\n".join(leaks)


def test_bob_an_approved_follower_gets_them_in_his_home_and_on_her_profile():
    people = make_people()
    items = alice_speaks(people, *public_posts(people))
    bob = Api(token_for("bob"))
    home = ids_in(bob.get("/api/v1/timelines/home", {"limit": "40"}).json())
    assert {str(status_id) for status_id in items.private_ids} <= home
    profile = ids_in(bob.get(f"/api/v1/accounts/{people.alice}/statuses").json())
    assert {str(status_id) for status_id in items.written} <= profile
    for status_id in items.written:
        assert bob.get(f"/api/v1/statuses/{status_id}").status_code == 200
    # Tag timelines are public listings: never a private post, even for a follower.
    assert not ids_in(bob.get(f"/api/v1/timelines/tag/{TAG}").json()) & {str(i) for i in items.private_ids}

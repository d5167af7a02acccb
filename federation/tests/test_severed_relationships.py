"""A suspending domain block severs the follows between people here and that server's accounts, both ways, as
Mastodon 4.3 does, and tells each person who lost some, once, how many and with whom: on the notifications page
and in the client API (``severed_relationships`` with its ``event``). Lifting the block restores none."""

from __future__ import annotations

import pytest

from accounts.models import User
from api.tests.helpers import Api, token_for
from federation import store
from federation.models import AccountRelationshipSeveranceEvent
from federation.services import domain_blocks, severance
from federation.tests.conftest import PASSWORD
from federation.tests.helpers import post_signed, public_create, queued_jobs, remote_actor, run_queued
from timelines import selectors, services
from timelines.services.follows import make_follow

SEVER = "federation.tasks.sever_relationships"


@pytest.fixture
def root(db) -> User:
    return User.objects.create_superuser(username="root", password=PASSWORD)


def _followed_by(remote, local) -> None:
    """``remote`` follows ``local`` as its accepted Follow would make it."""
    services.follow_user(uid=remote.actor.uid, other_uid=local.uid)
    store.add_remote_follower(local.uid, remote.actor.uid, 1.0, inbox=remote.actor.delivery_inbox)


def _home(user) -> list[str]:
    return [entry.status.message for entry in selectors.get_status_messages(uid=user.uid, count=50)]


def _notices(client, user) -> str:
    assert client.login(username=user.username, password=PASSWORD)
    page = client.get("/notifications").content.decode()
    client.logout()
    return " ".join(page.split())


def test_suspending_a_domain_severs_its_follows_both_ways_and_tells_each_person_once(client, root, alice, make_account):
    bob, carol = make_account("bob"), make_account("carol")
    rob, rita = remote_actor("rob"), remote_actor("rita")
    other = remote_actor("olga", domain="elsewhere.example")
    make_follow(uid=alice.uid, other_uid=rob.actor.uid, notify_followee=False)
    make_follow(uid=alice.uid, other_uid=other.actor.uid, notify_followee=False)
    make_follow(uid=bob.uid, other_uid=rob.actor.uid, notify_followee=False)
    _followed_by(rob, alice)
    _followed_by(rita, alice)
    services.follow_user(uid=carol.uid, other_uid=alice.uid)  # local follows stay
    assert post_signed(client, rob, public_create(rob, 1, "hello from rob")).status_code == 202
    assert run_queued() == ["stored"]
    assert _home(alice) == ["hello from rob"] and _home(bob) == ["hello from rob"]

    domain_blocks.block_domain(moderator=root, domain="remote.example", severity="suspend", reason="spam farm")
    assert [job.kwargs for job in queued_jobs() if job.func_name == SEVER] != []
    assert run_queued(SEVER) == [2]

    # Gone both ways, for everyone here; the other server's account and the local follow stay.
    assert selectors.get_following_ids(uid=alice.uid) == [other.actor.uid]
    assert [user.id for user in selectors.get_followers(uid=alice.uid)] == [carol.uid]
    assert selectors.get_following_ids(uid=bob.uid) == []
    assert store.remote_followers(alice.uid) == []
    assert (selectors.get_user(uid=alice.uid).followers_count, selectors.get_user(uid=alice.uid).following_count) == (
        1,
        1,
    )
    assert selectors.get_user(uid=rob.actor.uid).followers_count == 0
    # Nothing is sent to the suspended server for the unfollows.
    assert not [job for job in queued_jobs() if job.func_name == "federation.tasks.deliver"]

    said = _notices(client, alice)
    assert "The moderators suspended remote.example: you lost 2 followers and 1 account you followed there." in said
    assert "you lost 0 followers and 1 account you followed there." in _notices(client, bob)
    assert "suspended remote.example" not in _notices(client, carol)

    alices = Api(token_for("alice"))
    [notice] = [item for item in alices.get("/api/v1/notifications").json() if item["type"] != "follow"]
    assert notice["type"] == "severed_relationships" and notice["account"]["id"] == str(alice.uid)
    event = notice["event"]
    assert {key: event[key] for key in ("type", "purged", "target_name", "followers_count", "following_count")} == {
        "type": "domain_block",
        "purged": False,
        "target_name": "remote.example",
        "followers_count": 2,
        "following_count": 1,
    }
    assert event["id"].isdigit() and event["created_at"].endswith("Z")
    only = Api(token_for("bob")).get("/api/v1/notifications", {"types[]": "severed_relationships"}).json()
    assert [(item["event"]["followers_count"], item["event"]["following_count"]) for item in only] == [(0, 1)]

    # The job again: nothing more. Lifting the block brings back no follow and none of rob's posts.
    event_id = AccountRelationshipSeveranceEvent.objects.values_list("event_id", flat=True).first()
    assert severance.sever_relationships(event_id=event_id) == 0
    domain_blocks.unblock_domain(moderator=root, domain="remote.example", reason="they cleaned up")
    assert not selectors.is_following(uid=alice.uid, other_uid=rob.actor.uid)
    assert _home(alice) == [] and _home(bob) == []
    assert len(alices.get("/api/v1/notifications", {"types[]": "severed_relationships"}).json()) == 1


def test_a_silence_severs_nothing_and_a_change_to_suspend_does(root, alice, make_account):
    carol = make_account("carol")
    rob = remote_actor("rob")
    make_follow(uid=alice.uid, other_uid=rob.actor.uid, notify_followee=False)
    assert services.follow_user(uid=carol.uid, other_uid=rob.actor.uid) == services.REQUESTED
    assert selectors.get_relationship(viewer=carol.uid, other=rob.actor.uid).requested
    domain_blocks.block_domain(moderator=root, domain="remote.example", severity="silence", reason="noisy")
    assert not [job for job in queued_jobs() if job.func_name == SEVER]
    assert selectors.is_following(uid=alice.uid, other_uid=rob.actor.uid)

    domain_blocks.block_domain(moderator=root, domain="remote.example", severity="suspend", reason="worse")
    assert run_queued(SEVER) == [1]
    assert not selectors.is_following(uid=alice.uid, other_uid=rob.actor.uid)
    [notice] = selectors.get_notifications(uid=alice.uid)
    assert notice.kind == "severed_relationships" and notice.event["following_count"] == 1
    # A pending request goes too, and counts as nothing lost.
    assert not selectors.get_relationship(viewer=carol.uid, other=rob.actor.uid).requested
    assert selectors.get_notifications(uid=carol.uid) == []

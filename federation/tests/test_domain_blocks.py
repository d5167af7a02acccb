"""Domain blocks: a suspended server gets nothing and gives nothing, and its accounts' posts disappear for people
here; a silenced one reaches only its followers; both are applied at once, lifted exactly, and audited."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry

from accounts.models import User
from accounts.moderation import ModerationError
from federation import queue, store
from federation.models import DomainBlock
from federation.services import actors, domain_blocks, outbound
from federation.tests.conftest import PASSWORD
from federation.tests.helpers import post_signed, public_create, queued_jobs, remote_actor, run_queued
from timelines import selectors, services
from timelines.services.follows import make_follow


@pytest.fixture
def root(db) -> User:
    return User.objects.create_superuser(username="root", password=PASSWORD)


@pytest.fixture
def rob(db):
    return remote_actor("rob")


def _home(user) -> list[str]:
    return [entry.status.message for entry in selectors.get_status_messages(uid=user.uid, count=50)]


def test_a_suspended_domain_gets_nothing_gives_nothing_and_is_heard_again_when_lifted(client, root, alice, rob):
    make_follow(uid=alice.uid, other_uid=rob.actor.uid, notify_followee=False)
    services.follow_user(uid=rob.actor.uid, other_uid=alice.uid)
    store.add_remote_follower(alice.uid, rob.actor.uid, 1.0, inbox=rob.actor.delivery_inbox)
    assert post_signed(client, rob, public_create(rob, 1, "before the block")).status_code == 202
    assert run_queued() == ["stored"]
    assert _home(alice) == ["before the block"]
    # Queued before the block, processed after it: dropped.
    queue.enqueue_inbound(activity=public_create(rob, 2, "in the queue"), actor=rob.uri)

    domain_blocks.block_domain(moderator=root, domain="Remote.Example", severity="suspend", reason="spam farm")

    assert _home(alice) == []  # the policy hides a suspended account's posts everywhere
    assert run_queued() == ["blocked"]
    assert run_queued("federation.tasks.sever_relationships") == [1]  # alice's follows with rob go
    refused = post_signed(client, rob, public_create(rob, 3, "after the block"))
    assert refused.status_code == 403 and "error" in refused.json()
    assert not [job for job in queued_jobs() if job.func_name == "federation.tasks.process_inbound"]
    # Nothing goes out: no inbox of it in a fan-out, no look-up of its accounts.
    status_id = services.post_status(uid=alice.uid, message="anyone there?")
    assert outbound.fan_out(status_id=status_id, uid=alice.uid) == 0
    assert outbound.deliver(inbox=rob.actor.inbox, activity={"id": "x", "actor": "y"}, signer=alice.uid) == 0
    assert actors.resolve_account_uid("rob@remote.example") is None
    with pytest.raises(actors.ActorError):
        actors.fetch_actor("https://sub.remote.example/users/sam")  # subdomains too, never fetched
    [entry] = LogEntry.objects.filter(object_repr__startswith="remote.example")
    assert entry.user == root and entry.get_change_message() == "Blocked domain remote.example (suspend): spam farm"

    assert domain_blocks.unblock_domain(moderator=root, domain="remote.example", reason="they cleaned up")
    # The suspension is lifted, not the severance: alice follows rob no more (as in Mastodon).
    assert _home(alice) == ["anyone there?"]
    assert not selectors.get_uids_in_state("suspended")
    assert post_signed(client, rob, public_create(rob, 4, "welcome back")).status_code == 202
    assert run_queued() == ["stored"]
    assert LogEntry.objects.filter(change_message="Lifted the block of remote.example: they cleaned up").exists()


def test_a_silenced_domain_reaches_only_its_followers_here_even_its_accounts_found_later(
    client, root, alice, make_account, rob
):
    carol = make_account("carol")
    make_follow(uid=alice.uid, other_uid=rob.actor.uid, notify_followee=False)
    domain_blocks.block_domain(moderator=root, domain="remote.example", severity="silence", reason="harassment")
    rita = remote_actor("rita")  # found after the block: limited from the start
    assert selectors.get_uids_in_state("limited") == {rob.actor.uid, rita.actor.uid}

    mention = {"type": "Mention", "href": "http://testserver/@carol", "name": "@carol"}
    tag = {"type": "Hashtag", "href": "https://remote.example/tags/fedi", "name": "#fedi"}
    for number, remote in enumerate((rob, rita)):
        activity = public_create(remote, number, f"hi @carol #fedi from {remote.actor.username}", tag=[mention, tag])
        assert post_signed(client, remote, activity).status_code == 202
    assert run_queued() == ["stored", "stored"]
    assert _home(alice) == ["hi @carol #fedi from rob"]  # alice follows rob: his posts reach her
    assert selectors.get_tag_timeline(tag="fedi", viewer_uid=carol.uid) == []
    assert selectors.get_notifications(uid=carol.uid) == []  # nobody carol follows


def test_bad_blocks_are_refused_and_a_block_needs_the_permission(root, alice, rob):
    for domain in ("", "not a domain", "exa_mple.com", "..", 42):
        with pytest.raises(ModerationError):
            domain_blocks.block_domain(moderator=root, domain=domain, severity="suspend", reason="x")
    with pytest.raises(ModerationError):
        domain_blocks.block_domain(moderator=root, domain="remote.example", severity="obliterate", reason="x")
    with pytest.raises(ModerationError):
        domain_blocks.block_domain(moderator=root, domain="remote.example", severity="suspend", reason="  ")
    with pytest.raises(ModerationError):
        domain_blocks.block_domain(moderator=alice, domain="remote.example", severity="suspend", reason="x")
    assert not DomainBlock.objects.exists() and not selectors.get_uids_in_state("suspended")


def test_a_block_changed_from_suspend_to_silence_swaps_the_flag_and_keeps_one_block(root, rob):
    domain_blocks.block_domain(moderator=root, domain="remote.example", severity="suspend", reason="spam")
    domain_blocks.block_domain(moderator=root, domain="remote.example", severity="silence", reason="better now")
    domain_blocks.block_domain(moderator=root, domain="remote.example", severity="silence", reason="better now")
    assert selectors.get_uids_in_state("suspended") == set()
    assert selectors.get_uids_in_state("limited") == {rob.actor.uid}
    assert DomainBlock.objects.count() == 1
    assert LogEntry.objects.count() == 2  # the unchanged third call wrote nothing

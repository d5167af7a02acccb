"""The admin's Federation side: domain blocks added, changed and lifted in the admin apply at once and land in the
audit log with their reason; the Federation page lists the known servers with their accounts, follows, delivery
state and block; moderators may use both, other staff may not."""

from __future__ import annotations

import time

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client

from accounts import permissions
from accounts.models import User
from federation import store
from federation.models import DomainBlock
from federation.services import domain_blocks
from federation.tests.conftest import PASSWORD
from federation.tests.helpers import remote_actor
from timelines import selectors, services
from timelines.services.follows import make_follow


def _logged_in(user: User) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


@pytest.fixture
def mod(make_account) -> User:
    user = make_account("mod")
    permissions.make_moderator(user=user)
    return User.objects.get(pk=user.pk)


def _row(page: str, domain: str) -> str:
    start = page.index(f'data-domain="{domain}"')
    return page[start : page.index("</tr>", start)]


def test_a_moderator_blocks_changes_and_lifts_a_domain_in_the_admin(mod, alice):
    rob = remote_actor("rob")
    client = _logged_in(mod)
    form = client.get("/admin/federation/domainblock/add/?domain=remote.example")
    assert form.status_code == 200 and b'value="remote.example"' in form.content

    refused = client.post(
        "/admin/federation/domainblock/add/", {"domain": "not a domain", "severity": "suspend", "reason": "x"}
    )
    assert refused.status_code == 200 and b"Give a domain name" in refused.content
    assert not DomainBlock.objects.exists()

    added = client.post(
        "/admin/federation/domainblock/add/",
        {"domain": "https://Remote.Example/", "severity": "silence", "reason": "harassment"},
        follow=True,
    )
    assert added.status_code == 200
    block = DomainBlock.objects.get()
    assert block.domain == "remote.example" and block.severity == "silence"
    assert selectors.get_uids_in_state("limited") == {rob.actor.uid}

    changed = client.post(
        f"/admin/federation/domainblock/{block.pk}/change/",
        {"severity": "suspend", "reject_media": "on", "reason": "worse"},
        follow=True,
    )
    assert changed.status_code == 200
    assert selectors.get_uids_in_state("suspended") == {rob.actor.uid}
    assert selectors.get_uids_in_state("limited") == set()

    lifted = client.post(f"/admin/federation/domainblock/{block.pk}/delete/", {"post": "yes"}, follow=True)
    assert lifted.status_code == 200 and not DomainBlock.objects.exists()
    assert selectors.get_uids_in_state("suspended") == set()
    audit = list(LogEntry.objects.order_by("id").values_list("user__username", "change_message"))
    assert audit == [
        ("mod", "Blocked domain remote.example (silence): harassment"),
        ("mod", "Changed the block of remote.example to suspend, media rejected: worse"),
        ("mod", "Lifted the block of remote.example: lifted from the admin"),
    ]
    assert b"Lifted the block of remote.example" in client.get("/admin/admin/logentry/").content


def test_the_federation_page_lists_servers_with_counts_state_and_block(mod, alice, make_account):
    bob = make_account("bob")
    rob, rita, otto = remote_actor("rob"), remote_actor("rita"), remote_actor("otto", "other.example")
    remote_actor("sam", "gone.example")
    make_follow(uid=alice.uid, other_uid=rob.actor.uid, notify_followee=False)
    make_follow(uid=bob.uid, other_uid=rita.actor.uid, notify_followee=False)
    services.follow_user(uid=otto.actor.uid, other_uid=alice.uid)
    store.note_success("remote.example")
    store.note_failure("other.example", time.time() - 60)
    store.note_failure("other.example", time.time())
    store.note_failure("gone.example", time.time() - 8 * 24 * 3600)
    DomainBlock.objects.create(domain="blocked.example", severity="suspend", reason="spam")

    page = _logged_in(mod).get("/admin/federation/").content.decode()
    remote = _row(page, "remote.example")
    assert '<a href="/admin/federation/remoteactor/?q=remote.example">2</a>' in remote
    assert '<td class="field-followed">2</td>' in remote
    assert '<td class="field-state">available' in remote and '<td class="field-success">-' not in remote
    other = _row(page, "other.example")
    assert '<td class="field-following">1</td>' in other
    assert '<td class="field-state">failing' in other and '<td class="field-failures">2</td>' in other
    assert '<td class="field-state">unavailable' in _row(page, "gone.example")
    blocked = _row(page, "blocked.example")
    assert '<td class="field-state">suspended' in blocked and ">Suspend</a>" in blocked
    assert 'href="/admin/federation/domainblock/add/?domain=remote.example"' in remote

    searched = _logged_in(mod).get("/admin/federation/?q=other&page=x").content.decode()
    assert 'data-domain="other.example"' in searched and 'data-domain="remote.example"' not in searched
    assert b">Federation</a>" in _logged_in(mod).get("/admin/").content


def test_staff_without_the_permission_cannot_see_servers_nor_block(make_account):
    clerk = make_account("clerk")
    clerk.is_staff = True
    clerk.save(update_fields=["is_staff"])
    client = _logged_in(clerk)
    assert client.get("/admin/federation/").status_code == 403
    assert client.get("/admin/federation/domainblock/add/").status_code == 403
    assert b">Federation</a>" not in client.get("/admin/").content


def test_a_moderator_suspends_and_limits_a_remote_account_with_a_reason(mod, alice):
    rob, rita = remote_actor("rob"), remote_actor("rita")
    client = _logged_in(mod)
    listed = client.get("/admin/federation/remoteactor/").content.decode()
    assert "rob@remote.example" in listed and "rita@remote.example" in listed
    data = {"action": "suspend", "_selected_action": [rob.actor.pk], "apply": "1", "reason": "spam bot"}
    assert client.post("/admin/federation/remoteactor/", data, follow=True).status_code == 200
    assert selectors.get_uids_in_state("suspended") == {rob.actor.uid}
    suspended = client.get("/admin/federation/remoteactor/?state=suspended").content.decode()
    assert "rob@remote.example" in suspended and "rita@remote.example" not in suspended
    assert LogEntry.objects.get().get_change_message() == "Suspended: spam bot"

    # A limit the moderators confirm stays when the domain's block that set it is lifted.
    domain_blocks.block_domain(moderator=mod, domain="remote.example", severity="silence", reason="noisy")
    data = {"action": "limit", "_selected_action": [rita.actor.pk], "apply": "1", "reason": "noisy too"}
    client.post("/admin/federation/remoteactor/", data, follow=True)
    domain_blocks.unblock_domain(moderator=mod, domain="remote.example", reason="quieter")
    assert selectors.get_uids_in_state("limited") == {rita.actor.uid}

"""Posts fetched from their server, between two real socialsite servers on loopback (``peers.py``), where B
requires signed fetches (``SOCIALSITE_FEDERATION_AUTHORIZED_FETCH=1``, Mastodon's AUTHORIZED_FETCH) and A does
not. Everything A fetches from B goes through B's check, so these also show that A's fetches are signed.

- alice on A pastes the address of bob's post on B in search (the site's and the client API's with
  ``resolve=true``): A fetches it and shows it, and her like (API) and repost (its button on the results page)
  reach bob on B; bob's followers-only post is
  not shown (B does not serve it to A's instance actor).
- cara's reply to that post, and dan's reply to hers, were made on B by people nobody on A follows, so they were
  never delivered to A. alice opens the thread on A: A reads the post's ``replies`` collection on B (a job) and
  both replies appear in the thread, at their depth; reloading within the cooldown fetches nothing more.
- B refuses unsigned fetches of its actors, Notes and collections (401) and keeps its instance actor and
  WebFinger open; still, erin on A finds gus on B, follows him, and his post reaches her home; once B suspends
  A's domain, A's signed fetches get 403.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from federation.tests.peers import two_servers
from socialsite.testing import wait_until

SIGN_UP = """
from accounts.services import sign_up
for login in {logins!r}:
    print(sign_up(login=login, name=login.title(), password="a long enough password 42").uid)
"""

AS_ALICE = """
from django.test import Client
from accounts.models import User
browser = Client()
browser.force_login(User.objects.get(username="alice"))
"""


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    settings_of = {"b": {"SOCIALSITE_FEDERATION_AUTHORIZED_FETCH": "1"}}
    with two_servers(tmp_path_factory.mktemp("fetched"), settings_of) as pair:
        yield pair


def _get(url: str, accept: str = "application/activity+json") -> tuple[int, dict]:
    request = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def test_a_pasted_post_address_is_fetched_and_its_thread_gets_the_replies_a_never_received(servers):
    a, b = servers
    bob, cara, dan = (int(uid) for uid in b.run(SIGN_UP.format(logins=["bob", "cara", "dan"])).split())
    a.run(SIGN_UP.format(logins=["alice"]))
    posted = b.run(
        f"""
        from timelines import services
        post = services.post_status(uid={bob}, message="Paste my address")
        reply = services.post_status(uid={cara}, message="@bob A reply A never got", in_reply_to=post)
        services.post_status(uid={dan}, message="@cara And a deeper one", in_reply_to=reply)
        print(post, services.post_status(uid={bob}, message="For my followers", visibility="private"))
        """
    )
    post, private = (int(value) for value in posted.split())
    address = f"{b.url}/@bob/{post}"

    # alice pastes the address in the Search box: A fetches the Note (signed: B requires it) and shows it.
    found = a.run(
        AS_ALICE
        + f"""
page = browser.get("/search", {{"q": "{address}"}}).content.decode()
print("Paste my address" in page, "A reply A never got" in page)
hidden = browser.get("/search", {{"q": "{b.url}/@bob/{private}"}}).content.decode()
print("For my followers" in hidden)
"""
    )
    assert found.split() == ["True", "False", "False"], found
    on_a = int(a.run(f"from federation import store; print(store.object_status({address!r}))"))
    # The client API finds it too, with resolve=true, as a status she can act on; her like reaches bob on B.
    api = a.run(
        f"""
        from django.test import Client
        from api.tests.helpers import token_for
        token = token_for("alice")
        answer = Client().get("/api/v2/search", {{"q": "{address}", "resolve": "true"}},
                              headers={{"Authorization": f"Bearer {{token}}"}}).json()
        print(answer["statuses"][0]["id"], answer["statuses"][0]["account"]["acct"])
        liked = Client().post(f"/api/v1/statuses/{on_a}/favourite", headers={{"Authorization": f"Bearer {{token}}"}})
        print(liked.status_code)
        """
    )
    assert api.split() == [str(on_a), f"bob@{b.domain}", "200"], api
    # On the results page the post has its Repost button, and pressing it reaches bob on B as an Announce.
    reposted = a.run(
        AS_ALICE
        + f"""
from timelines.templatetags.timeline_format import action_url
page = browser.get("/search", {{"q": "{address}"}}).content.decode()
print(f'action="{{action_url({on_a}, "repost")}}"' in page)
print(browser.post(action_url({on_a}, "repost")).status_code)
"""
    )
    assert reposted.split() == ["True", "302"], reposted
    counts = f"""
        from timelines import selectors
        status = selectors.get_status(status_id={post})
        print(status.like_count, status.repost_count)
        """
    assert wait_until(lambda: b.run(counts) == "1 1"), b.run(counts)

    # The thread on A has none of the replies made on B ... until alice opens it: A reads the replies on B.
    thread = f"""
        from timelines import selectors
        thread = selectors.get_thread(status_id={on_a})
        print(" | ".join(f"{{item.depth}}:{{item.entry.status.message}}" for item in thread.descendants if item.entry))
        """
    assert a.run(thread) == ""
    opened = a.run(AS_ALICE + f'print(browser.get("/@bob@{b.domain}/{on_a}").status_code)')
    assert opened == "200"
    expected = "1:@bob A reply A never got | 2:@cara And a deeper one"
    assert wait_until(lambda: a.run(thread) == expected), a.run(thread)
    page = a.run(AS_ALICE + f'print(browser.get("/@bob@{b.domain}/{on_a}").content.decode())')
    assert "A reply A never got" in page and "And a deeper one" in page
    # Within the cooldown, reloading queues no other fetch.
    assert 0 < a.redis().ttl(f"ap:replies_fetched:{{{on_a}}}") <= 15 * 60


def test_with_authorized_fetch_b_refuses_unsigned_fetches_and_still_federates(servers):
    a, b = servers
    gus = int(b.run(SIGN_UP.format(logins=["gus"])))
    (erin,) = (int(uid) for uid in a.run(SIGN_UP.format(logins=["erin"])).split())
    post = int(b.run(f"from timelines import services; print(services.post_status(uid={gus}, message='Hi'))"))

    # Unsigned: B's actor, Note and collections are refused; its instance actor and WebFinger are not.
    for path in ("/@gus", f"/@gus/{post}", "/users/gus/outbox", "/users/gus/followers"):
        status, answer = _get(b.url + path)
        assert status == 401 and answer["error"].startswith("signature required"), (path, status, answer)
    assert _get(f"{b.url}/actor")[0] == 200
    assert _get(f"{b.url}/.well-known/webfinger?resource=acct:gus@{b.domain}", "application/jrd+json")[0] == 200
    # A's pages stay open (A does not require signatures).
    assert _get(f"{a.url}/@erin")[0] == 200

    # erin on A finds @gus@B, follows him, B accepts, and his next post reaches her home on A.
    followed = a.run(
        f"""
        from django.test import Client
        from accounts.models import User
        browser = Client()
        browser.force_login(User.objects.get(username="erin"))
        print(browser.get("/search", {{"q": "@gus@{b.domain}"}}).status_code)
        print(browser.post("/@gus@{b.domain}/follow", headers={{"HX-Request": "true"}}).status_code)
        """
    )
    assert followed.split() == ["200", "200"], followed
    gus_on_a = a.run(f"from timelines import selectors; print(selectors.get_user_by_login(login='gus@{b.domain}').id)")
    assert wait_until(lambda: a.redis().zscore(f"following:{{{erin}}}", gus_on_a) is not None), "no Accept from B"
    b.run(f"from timelines import services; services.post_status(uid={gus}, message='Signed and delivered')")
    assert wait_until(lambda: "Signed and delivered" in a.home_of(erin)), a.home_of(erin)

    # B suspends A's domain: A's signed fetches are refused with 403; lifted, they are served again.
    fetch = f"""
        from federation import client
        try:
            print(client.fetch_object("{b.url}/@gus/{post}")["id"])
        except client.FetchError as error:
            print(error)
        """
    block = f"""
        from accounts.models import User
        from federation.services import domain_blocks
        root = User.objects.filter(username="root").first() or User.objects.create_superuser(
            username="root", password="a long enough password 42")
        domain_blocks.{{verb}}(moderator=root, domain="{a.domain}", {{extra}}reason="test")
        """
    b.run(block.format(verb="block_domain", extra='severity="suspend", '))
    assert a.run(fetch).endswith("answered 403")
    b.run(block.format(verb="unblock_domain", extra=""))
    assert a.run(fetch) == f"{b.url}/@gus/{post}"

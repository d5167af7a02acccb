"""Two socialsite servers federate on loopback (step 5 of issue 22): alice on A follows bob on B through
WebFinger, Follow and Accept; bob's posts reach alice's home on A by their visibility, and never a non-follower;
a deletion on B takes the post out of A."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from federation.tests.peers import two_servers
from socialsite.testing import wait_until


@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    with two_servers(tmp_path_factory.mktemp("federation")) as pair:
        yield pair


def _get(url: str, accept: str = "application/activity+json") -> tuple[int, dict]:
    request = urllib.request.Request(url, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {}


SIGN_UP = """
from accounts.services import sign_up
for login in {logins!r}:
    print(sign_up(login=login, name=login.title(), password="a long enough password 42").uid)
"""


def test_a_follow_across_servers_brings_posts_home_by_visibility(servers):
    a, b = servers
    bob = int(b.run(SIGN_UP.format(logins=["bob"])))
    alice, carol = (int(uid) for uid in a.run(SIGN_UP.format(logins=["alice", "carol"])).split())

    # alice searches @bob@B on A's site (WebFinger, then the actor), opens his profile and presses Follow, which
    # reads Requested until B accepts. Her pages are served by A's own views (a Django client in A's process).
    answer = a.run(
        f"""
        from django.test import Client
        from accounts.models import User
        browser = Client()
        browser.force_login(User.objects.get(username="alice"))
        found = browser.get("/search", {{"q": "@bob@{b.domain}"}})
        print(found.status_code, 'href="/@bob@{b.domain}"' in found.content.decode())
        profile = browser.get("/@bob@{b.domain}")
        print(profile.status_code, ">Follow</button>" in profile.content.decode())
        pressed = browser.post("/@bob@{b.domain}/follow", headers={{"HX-Request": "true"}})
        print(pressed.status_code, ">Requested</button>" in pressed.content.decode())
        """
    )
    assert answer.split() == ["200", "True", "200", "True", "200", "True"], answer
    bob_on_a = a.run(f"from timelines import selectors; print(selectors.get_user_by_login(login='bob@{b.domain}').id)")
    following = f"following:{{{alice}}}"
    assert wait_until(lambda: a.redis().zscore(following, bob_on_a) is not None), "B's Accept did not complete it"
    assert b.redis().zcard(f"followers:{{{bob}}}") == 1
    shown = a.run(
        f"""
        from django.test import Client
        from accounts.models import User
        browser = Client()
        browser.force_login(User.objects.get(username="alice"))
        print(">Unfollow</button>" in browser.get("/@bob@{b.domain}").content.decode())
        """
    )
    assert shown == "True"

    posted = b.run(
        f"""
        from timelines import services
        print(services.post_status(uid={bob}, message="Hello from B #federation"))
        print(services.post_status(uid={bob}, message="Only for my followers", visibility="private"))
        """
    )
    public_id, private_id = (int(value) for value in posted.split())
    assert wait_until(lambda: len(a.home_of(alice)) == 2), a.home_of(alice)
    assert set(a.home_of(alice)) == {"Hello from B #federation", "Only for my followers"}
    assert a.home_of(carol) == []
    # On A, the followers-only post is alice's to see, not carol's (who does not follow bob) nor anyone's.
    seen = a.run(
        f"""
        from timelines import policy, selectors
        ids = selectors.get_status_messages(uid={alice}, count=10)
        private = next(entry for entry in ids if entry.visibility == "private")
        print(policy.may_see(viewer={alice}, status=private), policy.may_see(viewer={carol}, status=private),
              policy.may_see(viewer=None, status=private), private.login)
        """
    )
    assert seen == f"True False False bob@{b.domain}"
    # B serves the public Note to anyone and the followers-only one to no unsigned fetch.
    status, note = _get(f"{b.url}/@bob/{public_id}")
    assert status == 200 and note["attributedTo"] == f"{b.url}/@bob"
    assert _get(f"{b.url}/@bob/{private_id}")[0] == 404

    # bob deletes his public post on B: it leaves alice's home on A.
    b.run(f"from timelines import services; services.delete_status(uid={bob}, status_id={public_id})")
    assert wait_until(lambda: a.home_of(alice) == ["Only for my followers"]), a.home_of(alice)

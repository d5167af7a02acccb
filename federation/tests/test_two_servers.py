"""Federation between real servers on loopback, started once for the module (``peers.py``).

Two socialsite servers (step 5 of issue 22): alice on A follows bob on B through search, WebFinger, Follow and
Accept; bob's posts reach alice's home on A by their visibility, and never a non-follower; a deletion on B takes
the post out of A. frank on A mentions dora on B (looked up by A's fan-out job) and they exchange direct messages,
until A suspends B's domain: then nothing goes either way.

Against an independent implementation: a peer written with Fedify (npm ``@fedify/fedify`` 1.5.9, which runs on
Debian's Node 20, where 1.10 and 2.x need Node 22; ``fedify_peer/peer.js``, pinned by its lock file, installed by
``npm ci`` on the first run) federates with server A. It resolves dana by WebFinger, follows her and gets our
Accept; receives her post, each of our requests verified by Fedify; and its own signed Like, reply and Undo of the
follow are accepted and acted on by us.

A profile of B's on A has its counts (read from B's collections) and its avatar, and its post's image is A's
copy (fetched by A's jobs).

In Chromium (the issue's browser test): erin on A finds @gus@B with the header's search, sees his earlier post on
his profile (fetched from his outbox), follows him, and his post made on B arrives live on her home."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from federation.tests.conftest import PASSWORD
from federation.tests.peers import two_servers
from socialsite import testing
from socialsite.testing import wait_until

PROJECT = Path(__file__).parent / "fedify_peer"
CHROMIUM = os.environ.get("SOCIALSITE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
DESKTOP = {"width": 1024, "height": 768}
WAIT_MILLISECONDS = int(testing.WAIT_SECONDS * 1000)


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
        from media import services as media_services
        from media.tests.images import jpeg
        from timelines import services
        picture = media_services.upload(owner={bob}, data=jpeg((400, 300)), description="The harbour")
        print(services.post_status(uid={bob}, message="Hello from B #federation"))
        print(services.post_status(
            uid={bob}, message="Only for my followers", visibility="private", media_ids=[picture.pk]
        ))
        """
    )
    public_id, private_id = (int(value) for value in posted.split())
    assert wait_until(lambda: len(a.home_of(alice)) == 2), a.home_of(alice)
    # The followers-only post's image is copied by A too (its address carries B's key for it, which anyone
    # without the post lacks) and A serves its copy to alice, as the post, and to nobody else.
    copied = """
        from django.test import Client
        from accounts.models import User
        from media.models import Attachment
        copy = Attachment.objects.filter(description="The harbour").first()
        if copy is None or not copy.ready:
            print("-")
        else:
            browser = Client()
            browser.force_login(User.objects.get(username="alice"))
            mine = browser.get(f"/media/{copy.token}/original")
            print(mine.status_code, mine["Content-Type"], Client().get(f"/media/{copy.token}/original").status_code)
        """
    assert wait_until(lambda: a.run(copied) != "-"), "A did not copy the followers-only image"
    assert a.run(copied) == "200 image/jpeg 404", a.run(copied)
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

    # alice answers bob's public post on A: the reply reaches B, in the thread of bob's post, and bob is told.
    reply = a.run(
        f"""
        from timelines import selectors, services
        home = selectors.get_status_messages(uid={alice}, count=10)
        post = next(entry for entry in home if entry.visibility == "public")
        print(services.post_status(uid={alice}, message="Welcome, bob!", in_reply_to=post.id))
        services.repost_status(uid={alice}, status_id=post.id)
        """
    )
    assert reply.isdigit()
    # ... and her repost of it too (an Announce): bob is told of both.
    replies = f"""
        from timelines import selectors
        status = selectors.get_status(status_id={public_id})
        print(status.reply_count, status.repost_count,
              " ".join(sorted({{note.kind for note in selectors.get_notifications(uid={bob})}})))
        """
    assert wait_until(lambda: b.run(replies).startswith("1 1 ")), b.run(replies)
    assert {"reply", "repost", "follow"} <= set(b.run(replies).split())

    # The address of a profile found by search works as well as @login@domain.
    b.run(SIGN_UP.format(logins=["hal"]))
    by_address = a.run(
        f"""
        from django.test import Client
        from accounts.models import User
        browser = Client()
        browser.force_login(User.objects.get(username="alice"))
        found = browser.get("/search", {{"q": "{b.url}/@hal"}})
        print(found.status_code, 'href="/@hal@{b.domain}"' in found.content.decode())
        """
    )
    assert by_address == "200 True", by_address

    # bob deletes his public post on B: it leaves alice's home on A.
    b.run(f"from timelines import services; services.delete_status(uid={bob}, status_id={public_id})")
    assert wait_until(lambda: a.home_of(alice) == ["Welcome, bob!", "Only for my followers"]), a.home_of(alice)


IDLE = """
from timelines.queue import get_queue
queue = get_queue()
print(queue.count + queue.started_job_registry.count)
"""

CONVERSATIONS = """
from timelines import selectors
for conversation in selectors.get_conversations(uid={uid}):
    print(",".join(person.login for person in conversation.others), "|", conversation.last.message)
"""

NOTIFIED = """
from timelines import selectors
print(" ".join(f"{{n.kind}}:{{n.actor.login}}" for n in selectors.get_notifications(uid={uid})))
"""


def _content_type(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.headers["Content-Type"]
    except urllib.error.HTTPError:
        return ""


def test_a_profile_of_b_on_a_has_its_counts_avatar_and_images_served_by_a(servers):
    a, b = servers
    ines = int(b.run(SIGN_UP.format(logins=["ines"])))
    b.run(
        f"""
        from media import services as media_services
        from media.tests.images import jpeg
        from timelines import services
        from timelines.services.pictures import set_picture
        set_picture(uid={ines}, kind="avatar", data=jpeg((300, 300)))
        picture = media_services.upload(owner={ines}, data=jpeg((800, 600)), description="A lighthouse")
        services.post_status(uid={ines}, message="Look at this", media_ids=[picture.pk])
        """
    )
    # A finds ines: her counts are read from B's collections; jobs then cache her avatar and fetch her post (from
    # her outbox) and its image, which A serves itself.
    found = a.run(
        f"""
        from federation.services import actors
        from timelines import selectors
        user = selectors.get_user(uid=actors.resolve_acct("ines@{b.domain}").uid)
        print(user.id, user.posts_count, user.followers_count, user.following_count)
        """
    )
    ines_on_a, *counts = found.split()
    assert counts == ["1", "0", "0"], found
    assert wait_until(lambda: _content_type(f"{a.url}/@ines@{b.domain}/avatar") == "image/jpeg")
    token = f"""
        from timelines import selectors
        entries = selectors.get_status_messages(uid={ines_on_a}, timeline="profile", count=5)
        print(entries[0].media[0].token if entries and entries[0].media else "-")
        """
    assert wait_until(lambda: a.run(token) != "-"), "ines's post did not reach A"
    image = f"{a.url}/media/{a.run(token)}/preview"
    assert wait_until(lambda: _content_type(image) == "image/jpeg"), _content_type(image)


def test_mentions_and_direct_messages_cross_servers_until_a_domain_block_stops_them(servers):
    a, b = servers
    (dora,) = (int(uid) for uid in b.run(SIGN_UP.format(logins=["dora"])).split())
    frank, gina = (int(uid) for uid in a.run(SIGN_UP.format(logins=["frank", "gina"])).split())

    # frank mentions dora, whom A does not know yet: A's fan-out job looks her up (WebFinger) and delivers to her.
    a.run(f"from timelines import services; services.post_status(uid={frank}, message='Hi @dora@{b.domain}!')")
    assert wait_until(lambda: f"mention:frank@{a.domain}" in b.run(NOTIFIED.format(uid=dora))), b.run(
        NOTIFIED.format(uid=dora)
    )
    linked = a.run(
        f"""
        from timelines import selectors
        status = selectors.get_status_messages(uid={frank}, timeline="profile", count=1)[0]
        print(status.mention_logins)
        """
    )
    assert f"dora@{b.domain}" in linked

    # dora answers with a direct message: it lands in frank's conversations on A, nobody else's.
    b.run(
        f"""
        from timelines import services
        services.post_status(uid={dora}, message="@frank@{a.domain} just between us", visibility="direct")
        """
    )
    expected = f"dora@{b.domain} | @frank@{a.domain} just between us"
    assert wait_until(lambda: a.run(CONVERSATIONS.format(uid=frank)) == expected), a.run(
        CONVERSATIONS.format(uid=frank)
    )
    assert a.run(CONVERSATIONS.format(uid=gina)) == ""
    # frank answers in the conversation: the answer reaches dora's conversation on B.
    a.run(
        f"""
        from timelines import selectors, services
        conversation = selectors.get_conversations(uid={frank})[0]
        services.send_message(uid={frank}, message="Likewise", conversation_id=conversation.id)
        """
    )
    assert wait_until(lambda: "Likewise" in b.run(CONVERSATIONS.format(uid=dora))), b.run(
        CONVERSATIONS.format(uid=dora)
    )

    told = b.run(NOTIFIED.format(uid=dora))  # the mention, then the message

    # A's moderators suspend B: B's next message is refused at A's inbox, and nothing of A's goes to B.
    a.run(
        f"""
        from accounts.models import User
        from federation.services import domain_blocks
        root = User.objects.create_superuser(username="root", password="a long enough password 42")
        domain_blocks.block_domain(moderator=root, domain="{b.domain}", severity="suspend", reason="test")
        """
    )
    b.run(
        f"""
        from timelines import services
        services.post_status(uid={dora}, message="@frank@{a.domain} hello?", visibility="direct")
        """
    )
    a.run(f"from timelines import services; services.post_status(uid={frank}, message='Still there @dora@{b.domain}?')")
    assert wait_until(lambda: b.run(IDLE) == "0" and a.run(IDLE) == "0")
    assert a.run(CONVERSATIONS.format(uid=frank)) == f"dora@{b.domain} | Likewise"
    assert b.run(NOTIFIED.format(uid=dora)) == told
    # Lifted, for the module's other tests (the servers are shared).
    a.run(
        f"""
        from accounts.models import User
        from federation.services import domain_blocks
        root = User.objects.get(username="root")
        assert domain_blocks.unblock_domain(moderator=root, domain="{b.domain}", reason="test over")
        """
    )


def _install() -> Path:
    with (PROJECT / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (PROJECT / "node_modules" / "@fedify" / "fedify" / "package.json").is_file():
            npm = shutil.which("npm")
            assert npm, "npm is needed for the Fedify peer (bin/test installs Debian's nodejs and npm)"
            subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund"], cwd=PROJECT, check=True, capture_output=True, timeout=300
            )
    return PROJECT / "peer.js"


@pytest.fixture(scope="module")
def fedify_peer(servers, tmp_path_factory) -> Iterator[str]:
    """The Fedify peer, serving on a free port (server A of ``servers`` is the socialsite it meets)."""
    script = _install()
    node = shutil.which("node")
    assert node, "node is needed for the Fedify peer"
    log_path = tmp_path_factory.mktemp("fedify") / "peer.log"
    port = testing.free_port()
    with log_path.open("wb") as log:
        peer = subprocess.Popen([node, str(script), str(port)], cwd=PROJECT, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            testing.wait_until_served(url + "/control/received", peer, testing.WAIT_SECONDS, log_path)
            yield url
        finally:
            testing.stop(peer)


def _order(peer: str, order: str, **params: str) -> dict:
    url = f"{peer}/control/{order}?{urllib.parse.urlencode(params)}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="POST"), timeout=testing.WAIT_SECONDS) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{order}: {error.code} {error.read()[:2000]!r}") from None


def _received(peer: str) -> list[dict]:
    with urllib.request.urlopen(f"{peer}/control/received", timeout=10) as answer:
        return json.loads(answer.read())


def test_a_fedify_peer_follows_receives_likes_replies_and_unfollows(servers, fedify_peer):
    site, peer = servers[0], fedify_peer
    dana = int(
        site.run(
            """
            from accounts.services import sign_up
            print(sign_up(login="dana", name="Dana", password="a long enough password 42").uid)
            """
        )
    )
    actor = f"{site.url}/@dana"

    assert _order(peer, "resolve", target=actor) == {
        "id": actor,
        "name": "Dana",
        "inbox": f"{site.url}/users/dana/inbox",
    }
    _order(peer, "follow", target=actor)
    followers = f"followers:{{{dana}}}"
    assert wait_until(lambda: site.redis().zcard(followers) == 1), "the peer's signed Follow was not taken"
    assert wait_until(lambda: any(item["type"] == "Accept" for item in _received(peer))), _received(peer)

    status_id = int(
        site.run(
            f"""
            from timelines import services
            print(services.post_status(uid={dana}, message="Hello, Fedify #interop"))
            """
        )
    )
    note = f"{site.url}/@dana/{status_id}"
    assert wait_until(lambda: any(item["type"] == "Create" and item["object"] == note for item in _received(peer)))
    create = next(item for item in _received(peer) if item["type"] == "Create")
    assert "Hello, Fedify" in create["content"] and create["actor"] == actor

    _order(peer, "like", actor=actor, target=note)
    _order(peer, "reply", actor=actor, target=note, text="<p>Hello from Fedify</p>")
    counts = f"""
        from timelines import selectors
        status = selectors.get_status(status_id={status_id})
        print(status.like_count, status.reply_count)
        """
    assert wait_until(lambda: site.run(counts) == "1 1"), site.run(counts)
    kinds = f"""
        from timelines import selectors
        print(" ".join(sorted({{note.kind for note in selectors.get_notifications(uid={dana})}})))
        """
    # dana is told of the peer's follow, like and reply like anyone's (the reply's notification is written by its
    # delivery, just after the count).
    assert wait_until(lambda: {"follow", "like", "reply"} <= set(site.run(kinds).split())), site.run(kinds)

    _order(peer, "unfollow", actor=actor)
    assert wait_until(lambda: site.redis().zcard(followers) == 0), "the peer's Undo was not taken"


def test_in_a_browser_a_remote_account_is_found_followed_and_its_posts_arrive_live(servers):
    """The issue's browser test: erin on A types @gus@B in the header's Search box, opens gus's profile from the
    results, presses Follow, and sees gus's new post (made on B) arrive live on her home; B tells gus that erin
    followed him."""
    a, b = servers
    a.run(SIGN_UP.format(logins=["erin"]))
    gus = int(b.run(SIGN_UP.format(logins=["gus"])))
    b.run(f'from timelines import services; services.post_status(uid={gus}, message="Posted before erin came")')
    acct = f"gus@{b.domain}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(base_url=a.url, viewport=DESKTOP)
            context.set_default_timeout(WAIT_MILLISECONDS)
            page = context.new_page()
            page.goto("/accounts/login/")
            page.get_by_label("Username").fill("erin")
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Log in").click()
            expect(page.get_by_text("Logged in as @erin")).to_be_visible(timeout=WAIT_MILLISECONDS)

            page.get_by_role("searchbox", name="Search").fill(f"@{acct}")
            page.get_by_role("searchbox", name="Search").press("Enter")
            page.get_by_role("link", name=f"Gus @{acct}").click()
            expect(page.get_by_role("heading", name=f"Gus @{acct}")).to_be_visible(timeout=WAIT_MILLISECONDS)
            # His latest public posts are fetched from his outbox when A first finds him (a job): they show on
            # his profile here.
            earlier = page.locator("article.status", has_text="Posted before erin came")
            assert wait_until(lambda: page.reload() and earlier.count() == 1, interval=0.5), "no posts from his outbox"
            page.get_by_role("button", name="Follow", exact=True).click()
            expect(page.get_by_role("button", name="Requested", exact=True)).to_be_visible(timeout=WAIT_MILLISECONDS)
            erin = a.run("from timelines import selectors; print(selectors.get_user_by_login(login='erin').id)")
            gus_on_a = a.run(f"from timelines import selectors; print(selectors.get_user_by_login(login='{acct}').id)")
            assert wait_until(lambda: a.redis().zscore(f"following:{{{erin}}}", gus_on_a) is not None)

            page.goto("/")
            page.evaluate("window.stillTheSamePage = true")
            b.run(f'from timelines import services; services.post_status(uid={gus}, message="Live from server B")')
            live = page.locator("article.status", has_text="Live from server B")
            expect(live).to_be_visible(timeout=WAIT_MILLISECONDS)  # without a reload:
            assert page.evaluate("window.stillTheSamePage") is True
            expect(live).to_contain_text(f"@{acct}")
        finally:
            browser.close()
    told = b.run(
        f"""
        from timelines import selectors
        print(" ".join(note.kind for note in selectors.get_notifications(uid={gus})))
        """
    )
    assert "follow" in told.split()

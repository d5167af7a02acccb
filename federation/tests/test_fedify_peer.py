"""Against an independent implementation: a peer written with Fedify (npm ``@fedify/fedify`` 1.5, the last line
that runs on Debian's Node 20; ``fedify_peer/peer.js``, pinned by its lock file, installed by ``npm ci`` on the
first run) federates with a socialsite server on loopback. The peer resolves alice by WebFinger, follows her and
gets our Accept; receives her post, each of our requests verified by Fedify; and its own signed Like, reply and
Undo of the follow are accepted and acted on by us."""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from federation.tests.peers import Peer, servers
from socialsite import testing
from socialsite.testing import wait_until

PROJECT = Path(__file__).parent / "fedify_peer"


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
def federated(tmp_path_factory) -> Iterator[tuple[Peer, str]]:
    script = _install()
    node = shutil.which("node")
    assert node, "node is needed for the Fedify peer"
    base = tmp_path_factory.mktemp("fedify")
    port = testing.free_port()
    with servers(base, ("site",)) as (site,), (base / "peer.log").open("wb") as log:
        peer = subprocess.Popen([node, str(script), str(port)], cwd=PROJECT, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            testing.wait_until_served(url + "/control/received", peer, testing.WAIT_SECONDS, base / "peer.log")
            yield site, url
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


def test_a_fedify_peer_follows_receives_likes_replies_and_unfollows(federated):
    site, peer = federated
    alice = int(
        site.run(
            """
            from accounts.services import sign_up
            print(sign_up(login="alice", name="Alice", password="a long enough password 42").uid)
            """
        )
    )
    actor = f"{site.url}/@alice"

    assert _order(peer, "resolve", target=actor) == {
        "id": actor,
        "name": "Alice",
        "inbox": f"{site.url}/users/alice/inbox",
    }
    _order(peer, "follow", target=actor)
    followers = f"followers:{{{alice}}}"
    assert wait_until(lambda: site.redis().zcard(followers) == 1), "the peer's signed Follow was not taken"
    assert wait_until(lambda: any(item["type"] == "Accept" for item in _received(peer))), _received(peer)

    status_id = int(
        site.run(
            f"""
            from timelines import services
            print(services.post_status(uid={alice}, message="Hello, Fedify #interop"))
            """
        )
    )
    note = f"{site.url}/@alice/{status_id}"
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
    kinds = site.run(
        f"""
        from timelines import selectors
        print(" ".join(sorted({{note.kind for note in selectors.get_notifications(uid={alice})}})))
        """
    )
    # alice is told of the peer's follow, like and reply like anyone's.
    assert {"follow", "like", "reply"} <= set(kinds.split())

    _order(peer, "unfollow", actor=actor)
    assert wait_until(lambda: site.redis().zcard(followers) == 0), "the peer's Undo was not taken"

"""Remote profiles' counts and pictures, and remote posts' images, from a loopback server speaking Mastodon's
shapes: the actor's ``followers``/``following``/``outbox`` are ``OrderedCollection``s with ``totalItems`` (read
when the actor is fetched), its ``icon`` and ``image`` are ``Image``s, a Note's ``attachment`` a ``Document``.
Pictures are fetched by jobs, re-processed like uploads and served from this site; a domain whose media are
rejected gets none."""

from __future__ import annotations

import io
import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from PIL import Image

from accounts.models import User
from api.tests.helpers import Api, token_for
from federation import contexts, identities, store
from federation.services import actors, domain_blocks, lookup
from federation.tests.conftest import AP, PASSWORD
from federation.tests.helpers import Remote, post_signed, queued_jobs, remote_actor, run_queued
from media.tests.images import jpeg, png
from timelines import queue, selectors
from timelines.services import pictures
from timelines.worker import Worker

_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
_PEM = _KEY.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
FILES = {"/files/mo.jpg": jpeg((600, 500)), "/files/banner.png": png((900, 300)), "/files/photo.jpg": jpeg((800, 600))}


def _documents(base: str, counts: dict[str, int]) -> dict[str, dict[str, Any]]:
    uri = f"{base}/users/mo"
    actor = {
        "id": uri,
        "type": "Person",
        "preferredUsername": "mo",
        "name": "Mo",
        "summary": "<p>Posting from elsewhere</p>",
        "inbox": f"{uri}/inbox",
        "outbox": f"{uri}/outbox",
        "followers": f"{uri}/followers",
        "following": f"{uri}/following",
        "publicKey": {"id": f"{uri}#main-key", "owner": uri, "publicKeyPem": _PEM.decode()},
        "icon": {"type": "Image", "mediaType": "image/jpeg", "url": f"{base}/files/mo.jpg"},
        "image": {"type": "Image", "mediaType": "image/png", "url": f"{base}/files/banner.png"},
    }
    found: dict[str, dict[str, Any]] = {uri: actor}
    for name in ("followers", "following", "outbox"):
        found[f"{uri}/{name}"] = {
            "@context": contexts.ACTIVITYSTREAMS,
            "id": f"{uri}/{name}",
            "type": "OrderedCollection",
            "totalItems": counts[name],
            "first": f"{uri}/{name}?page=1",
        }

    def note(number: int, attachment: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "id": f"{uri}/statuses/{number}",
            "type": "Note",
            "attributedTo": uri,
            "content": f"<p>Photo {number}</p>",
            "to": [contexts.PUBLIC],
            "cc": [f"{uri}/followers"],
            "attachment": attachment,
        }

    photo = {
        "type": "Document",
        "mediaType": "image/jpeg",
        "url": f"{base}/files/photo.jpg",
        "name": "A harbour at dusk",
        "blurhash": "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
        "width": 800,
        "height": 600,
    }
    page = {**photo, "url": f"{base}/files/page.html", "name": "Not really an image"}
    gone = {**photo, "url": f"{base}/files/gone.jpg", "name": "Deleted there"}  # answered 404
    for document in (note(1, [photo]), note(2, [page]), note(3, [photo, gone])):
        found[document["id"]] = document
    return found


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.server.requests.append((self.path, self.headers.get("Signature", "")))
        failing = self.server.failures.get(self.path)
        if failing:  # answers to give first, one per request (a server in trouble)
            self.send_response(failing.pop(0))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path in FILES:
            body, kind = FILES[self.path], "image/png" if self.path.endswith(".png") else "image/jpeg"
        elif self.path == "/files/page.html":
            body, kind = b"<html><body>hello</body></html>", "text/html"
        elif self.path.startswith("/.well-known/webfinger"):
            body, kind = (
                json.dumps(
                    {"links": [{"rel": "self", "type": contexts.ACTIVITY_JSON, "href": f"{base}/users/mo"}]}
                ).encode(),
                "application/jrd+json",
            )
        else:
            document = _documents(base, self.server.counts).get(base + self.path)
            body, kind = json.dumps(document or {}).encode(), "application/activity+json"
            if document is None:
                self.send_response(404)
                self.end_headers()
                return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def mastodon(settings):
    settings.SOCIALSITE_FEDERATION_INSECURE = True
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.requests = []  # type: ignore[attr-defined]
    server.failures = {}  # type: ignore[attr-defined]
    server.counts = {"followers": 1234, "following": 56, "outbox": 789}  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()


def _host(server) -> str:
    return f"127.0.0.1:{server.server_address[1]}"


def _size_of(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_a_remote_profile_shows_its_servers_counts_read_when_the_actor_is_fetched(client, alice, mastodon):
    found = actors.resolve_acct(f"mo@{_host(mastodon)}")
    user = selectors.get_user(uid=found.uid)
    assert (user.followers_count, user.following_count, user.posts_count) == (1234, 56, 789)
    signed = [path for path, signature in mastodon.requests if path.endswith(("/followers", "/following", "/outbox"))]
    assert sorted(signed) == sorted(f"/users/mo/{name}" for name in ("followers", "following", "outbox"))
    assert all(signature for path, signature in mastodon.requests if path.startswith("/users/"))

    asked = len(mastodon.requests)
    page = client.get(f"/@mo@{_host(mastodon)}").content.decode()
    assert "<strong>789</strong> posts" in page and "<strong>1234</strong> followers" in page
    assert "<strong>56</strong> following" in page
    assert len(mastodon.requests) == asked  # nothing fetched to show the page

    account = Api(token_for("alice")).get(f"/api/v1/accounts/{found.uid}").json()
    assert (account["followers_count"], account["following_count"], account["statuses_count"]) == (1234, 56, 789)

    # A refresh reads them again; a collection that cannot be read keeps its count.
    mastodon.counts = {"followers": 1300, "following": 57, "outbox": 790}
    actors.actor_by_uri(found.uri, refresh=True)
    user = selectors.get_user(uid=found.uid)
    assert (user.followers_count, user.following_count, user.posts_count) == (1300, 57, 790)
    follow_list = client.get(f"/@mo@{_host(mastodon)}/followers").content.decode()
    assert f"{_host(mastodon)} counts 1300 followers" in follow_list


def test_a_remote_avatar_and_header_are_fetched_by_a_job_and_served_from_here(client, alice, mastodon):
    found = actors.resolve_acct(f"mo@{_host(mastodon)}")
    assert [job.kwargs for job in queued_jobs() if job.func_name.endswith("cache_remote_pictures")] == [
        {"uid": found.uid}
    ]
    assert run_queued("federation.tasks.cache_remote_pictures") == [2]
    picture_requests = [(path, signature) for path, signature in mastodon.requests if path.startswith("/files/")]
    assert sorted(path for path, _ in picture_requests) == ["/files/banner.png", "/files/mo.jpg"]
    user = selectors.get_user(uid=found.uid)
    assert user.avatar and user.header

    avatar = client.get(f"/@mo@{_host(mastodon)}/avatar")
    assert avatar.status_code == 200 and avatar["Content-Type"] == "image/jpeg"
    assert _size_of(_body(avatar)) == (400, 400)  # cropped square as a local avatar is
    page = client.get(f"/@mo@{_host(mastodon)}").content.decode()
    assert f'src="/media/{user.header}/original"' in page and "http://127.0.0.1" not in page.split("<main", 1)[-1]
    header = client.get(f"/media/{user.header}/original")
    assert header.status_code == 200 and _size_of(_body(header)) == (900, 300)

    account = Api(token_for("alice")).get(f"/api/v1/accounts/{found.uid}").json()
    assert account["avatar"].endswith(f"/media/{user.avatar}/original")
    assert account["header"].endswith(f"/media/{user.header}/original")

    # A refresh naming the same pictures fetches none again.
    actors.actor_by_uri(found.uri, refresh=True)
    assert not [job for job in queued_jobs() if job.func_name.endswith("cache_remote_pictures")]


def test_a_remote_posts_image_is_cached_by_a_job_with_a_stand_in_until_then(client, alice, mastodon):
    base = f"http://{_host(mastodon)}"
    _, status_id = lookup.resolve_url(f"{base}/users/mo/statuses/1")
    [item] = selectors.get_status(status_id=status_id).media
    assert item.token and item.remote_url == f"{base}/files/photo.jpg" and item.description == "A harbour at dusk"
    assert (item.width, item.height, item.preview_width, item.preview_height) == (800, 600, 640, 480)

    assert client.login(username="alice", password=PASSWORD)
    page = client.get(f"/@mo@{_host(mastodon)}/{status_id}").content.decode()
    assert f'src="/media/{item.token}/preview" alt="A harbour at dusk"' in page
    assert f'src="{base}' not in page
    waiting = client.get(f"/media/{item.token}/preview")
    assert waiting["Content-Type"] == "image/svg+xml" and b"Loading the image" in _body(waiting)

    assert run_queued("federation.tasks.cache_remote_images") == [1]
    preview = client.get(f"/media/{item.token}/preview")
    assert preview["Content-Type"] == "image/jpeg" and _size_of(_body(preview)) == (640, 480)
    original = client.get(f"/media/{item.token}/original")
    assert _size_of(_body(original)) == (800, 600)

    status = Api(token_for("alice")).get(f"/api/v1/statuses/{status_id}").json()
    [attachment] = status["media_attachments"]
    assert attachment["url"].endswith(f"/media/{item.token}/original")
    assert attachment["preview_url"].endswith(f"/media/{item.token}/preview")
    assert attachment["remote_url"] == f"{base}/files/photo.jpg"

    # Something that is not an image is never kept: its stand-in says so.
    _, other_id = lookup.resolve_url(f"{base}/users/mo/statuses/2")
    [other] = selectors.get_status(status_id=other_id).media
    assert run_queued("federation.tasks.cache_remote_images") == [0]
    refused = client.get(f"/media/{other.token}/preview")
    assert refused["Content-Type"] == "image/svg+xml" and b"not available" in _body(refused)


def test_a_domain_whose_media_are_rejected_keeps_none_of_its_pictures_here_until_the_block_is_lifted(
    client, alice, mastodon
):
    base = f"http://{_host(mastodon)}"
    found = actors.resolve_acct(f"mo@{_host(mastodon)}")
    _, status_id = lookup.resolve_url(f"{base}/users/mo/statuses/1")
    run_queued("federation.tasks.cache_remote_pictures")
    run_queued("federation.tasks.cache_remote_images")
    [item] = selectors.get_status(status_id=status_id).media
    assert client.get(f"/media/{item.token}/preview")["Content-Type"] == "image/jpeg"

    root = User.objects.create_superuser(username="root", password=PASSWORD)
    domain_blocks.block_domain(moderator=root, domain=_host(mastodon), severity="noop", reject_media=True, reason="x")
    assert run_queued("federation.tasks.apply_media_policy") == [1]
    assert client.get(f"/media/{item.token}/preview")["Content-Type"] == "image/svg+xml"
    user = selectors.get_user(uid=found.uid)
    assert not user.avatar and not user.header
    assert client.get(f"/@mo@{_host(mastodon)}/avatar")["Content-Type"] == "image/svg+xml"  # the generated one

    # Nothing is fetched from it any more: a refresh caches no picture, a new post keeps no image.
    asked = len(mastodon.requests)
    actors.actor_by_uri(found.uri, refresh=True)
    run_queued("federation.tasks.cache_remote_pictures")
    assert not [path for path, _ in mastodon.requests[asked:] if path.startswith("/files/")]
    assert selectors.get_user(uid=found.uid).avatar == ""

    # Lifted: what the rejection removed is fetched again.
    domain_blocks.unblock_domain(moderator=root, domain=_host(mastodon), reason="resolved")
    assert run_queued("federation.tasks.apply_media_policy") == [1]
    assert run_queued("federation.tasks.cache_remote_images") == [1]
    assert run_queued("federation.tasks.cache_remote_pictures") == [2]
    assert client.get(f"/media/{item.token}/preview")["Content-Type"] == "image/jpeg"
    assert client.get(f"/@mo@{_host(mastodon)}/avatar")["Content-Type"] == "image/jpeg"


def test_a_profile_found_by_its_address_has_its_counts_too(db, mastodon):
    kind, uid = lookup.resolve_url(f"http://{_host(mastodon)}/users/mo")
    assert kind == "account"
    user = selectors.get_user(uid=uid)
    assert (user.followers_count, user.following_count, user.posts_count) == (1234, 56, 789)


def test_our_actor_names_its_picture_files_and_a_new_one_goes_to_the_servers_that_follow(client, alice):
    rob = remote_actor("rob")
    store.add_remote_follower(alice.uid, rob.actor.uid, 1.0, inbox=rob.actor.delivery_inbox)
    avatar = pictures.set_picture(uid=alice.uid, kind="avatar", data=jpeg((300, 300)))
    header = pictures.set_picture(uid=alice.uid, kind="header", data=png((900, 300)))
    actor = client.get("/@alice", HTTP_ACCEPT=AP).json()
    assert actor["icon"]["url"].endswith(f"/media/{avatar}/original")
    assert actor["image"]["url"].endswith(f"/media/{header}/original")
    assert [job.kwargs for job in queued_jobs() if job.func_name == "federation.tasks.actor_update"] == [
        {"uid": alice.uid}
    ]


def test_an_actor_fetched_for_its_key_in_a_request_has_its_counts_read_by_a_job(client, alice, mastodon):
    uri = f"http://{_host(mastodon)}/users/mo"
    follow = {"id": f"{uri}#follows/1", "type": "Follow", "actor": uri, "object": identities.actor("alice")}
    signer = Remote(uri=uri, key=_KEY, actor=None)  # type: ignore[arg-type]
    assert post_signed(client, signer, follow, path="/users/alice/inbox").status_code == 202
    assert [path for path, _ in mastodon.requests] == ["/users/mo"]  # its key, nothing more in the request
    assert run_queued("federation.tasks.refresh_actor") != []
    user = selectors.get_user(uid=actors.actor_by_uri(uri).uid)
    assert (user.followers_count, user.following_count, user.posts_count) == (1234, 56, 789)


def _work_until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Run the site's worker class here, in burst mode with its scheduler (which queues the retries that are due),
    until ``condition`` holds."""
    jobs = queue.get_queue()
    deadline = time.monotonic() + timeout
    while True:
        Worker([jobs], connection=jobs.connection).work(burst=True, with_scheduler=True)
        if condition():
            return
        assert time.monotonic() < deadline, "timed out waiting for the jobs"
        time.sleep(0.1)  # a pause between polls; the condition decides


def _asked(server, path: str) -> int:
    return sum(1 for asked, _ in server.requests if asked == path)


def test_a_remote_picture_that_failed_for_a_reason_that_may_pass_is_fetched_again_later_and_a_404_is_not(
    settings, client, alice, mastodon
):
    settings.SOCIALSITE_REMOTE_MEDIA_RETRY_SECONDS = [1, 1, 1]
    mastodon.failures = {"/files/photo.jpg": [503], "/files/mo.jpg": [502]}
    found = actors.resolve_acct(f"mo@{_host(mastodon)}")
    _, status_id = lookup.resolve_url(f"http://{_host(mastodon)}/users/mo/statuses/3")
    item, gone = selectors.get_status(status_id=status_id).media
    preview = f"/media/{item.token}/preview"

    jobs = queue.get_queue()
    Worker([jobs], connection=jobs.connection).work(burst=True)  # the first tries, no retry due yet
    assert _asked(mastodon, "/files/photo.jpg") == 1
    assert b"Loading the image" in _body(client.get(preview))  # not given up: still on its way
    assert b"not available" in _body(client.get(f"/media/{gone.token}/preview"))  # a 404 is final
    assert queue.get_job(f"ap-images-{status_id}").get_status() == "scheduled"
    assert selectors.get_user(uid=found.uid).header and not selectors.get_user(uid=found.uid).avatar

    _work_until(
        lambda: client.get(preview)["Content-Type"] == "image/jpeg" and bool(selectors.get_user(uid=found.uid).avatar)
    )
    assert _asked(mastodon, "/files/photo.jpg") == 2 and _asked(mastodon, "/files/mo.jpg") == 2
    assert _asked(mastodon, "/files/gone.jpg") == 1
    assert _size_of(_body(client.get(preview))) == (640, 480)
    assert client.get(f"/@mo@{_host(mastodon)}/avatar")["Content-Type"] == "image/jpeg"


def test_a_remote_picture_whose_server_keeps_failing_is_tried_four_times_then_given_up(
    settings, client, alice, mastodon
):
    settings.SOCIALSITE_REMOTE_MEDIA_RETRY_SECONDS = [1, 1, 1]
    mastodon.failures = {"/files/photo.jpg": [503] * 10}
    _, status_id = lookup.resolve_url(f"http://{_host(mastodon)}/users/mo/statuses/1")
    [item] = selectors.get_status(status_id=status_id).media
    _work_until(lambda: b"not available" in _body(client.get(f"/media/{item.token}/preview")))
    assert _asked(mastodon, "/files/photo.jpg") == 4  # the first try and three retries

"""Images across servers: a local post's images go out as ``Document`` attachments (URL, type, alt text,
blurhash, size); another server's images (images only) are kept here with their alt text, unless its domain's
media are rejected (their caching is ``test_remote_profiles_and_media.py``'s)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from accounts.models import User
from federation import store
from federation.services import domain_blocks
from federation.tests.conftest import PASSWORD
from federation.tests.helpers import post_signed, public_create, queued_jobs, remote_actor, run_queued
from media import services as media_services
from media.tests.images import jpeg
from timelines import selectors, services
from timelines import store as timelines_store
from timelines.records import MediaItem, stored_media
from timelines.services import moderation
from timelines.services.follows import make_follow


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def rob(db):
    return remote_actor("rob")


CAT = {
    "type": "Document",
    "mediaType": "image/png",
    "url": "https://remote.example/files/cat.png",
    "name": "A cat on a mat",
    "blurhash": "LEHV6nWB2yk8pyo0adR*.7kCMdnj",
    "width": 800,
    "height": 600,
}


def test_a_local_posts_images_go_out_as_documents_with_their_alt_text(alice, rob):
    services.follow_user(uid=rob.actor.uid, other_uid=alice.uid)
    store.add_remote_follower(alice.uid, rob.actor.uid, 1.0, inbox=rob.actor.delivery_inbox)
    upload = media_services.upload(owner=alice.uid, data=jpeg((120, 80)), description="Two hills")
    services.post_status(uid=alice.uid, message="My view", media_ids=[upload.id], sensitive=True)
    assert run_queued("federation.tasks.fan_out") == [1]
    [delivery] = [job.kwargs for job in queued_jobs() if job.func_name == "federation.tasks.deliver"]
    note = delivery["activity"]["object"]
    [document] = note["attachment"]
    assert document["type"] == "Document" and document["mediaType"] == upload.content_type
    assert document["url"].endswith(f"/media/{upload.token}/original") and document["url"].startswith("http")
    assert document["name"] == "Two hills" and document["blurhash"] == upload.blurhash
    assert (document["width"], document["height"]) == (upload.width, upload.height)
    assert note["sensitive"] is True


def _delivered_image_url(alice, rob, *, visibility):
    upload = media_services.upload(owner=alice.uid, data=jpeg((120, 80)), description="Our garden")
    services.post_status(uid=alice.uid, message="Just for you", media_ids=[upload.id], visibility=visibility)
    assert run_queued("federation.tasks.fan_out") == [1]
    delivered = [job.kwargs for job in queued_jobs() if job.func_name == "federation.tasks.deliver"]
    note = delivered[-1]["activity"]["object"]
    [document] = note["attachment"]
    return int(note["id"].rsplit("/", 1)[1]), upload, urlsplit(document["url"])


def test_a_followers_only_posts_images_can_be_fetched_by_the_servers_it_was_sent_to_and_nobody_else(client, alice, rob):
    services.follow_user(uid=rob.actor.uid, other_uid=alice.uid)
    store.add_remote_follower(alice.uid, rob.actor.uid, 1.0, inbox=rob.actor.delivery_inbox)
    status_id, upload, url = _delivered_image_url(alice, rob, visibility="private")
    assert url.path == f"/media/{upload.token}/original" and url.query.startswith("key=")
    # The server it was sent to fetches the image unsigned, as Mastodon does, with the address it was given.
    fetched = client.get(f"{url.path}?{url.query}")
    assert fetched.status_code == 200 and fetched["Content-Type"] == upload.content_type
    # Without the key, or with another image's, the policy answers for an anonymous reader: nothing.
    assert client.get(url.path).status_code == 404
    assert client.get(f"{url.path}?key={'0' * 40}").status_code == 404
    # The key opens this image only while its post is there.
    services.delete_status(uid=alice.uid, status_id=status_id)
    assert client.get(f"{url.path}?{url.query}").status_code == 404


def test_a_keyed_image_address_stops_when_its_author_is_suspended_and_public_posts_need_no_key(client, alice, rob):
    services.follow_user(uid=rob.actor.uid, other_uid=alice.uid)
    store.add_remote_follower(alice.uid, rob.actor.uid, 1.0, inbox=rob.actor.delivery_inbox)
    _, _, public = _delivered_image_url(alice, rob, visibility="public")
    assert public.query == "" and client.get(public.path).status_code == 200
    _, _, private = _delivered_image_url(alice, rob, visibility="private")
    assert client.get(f"{private.path}?{private.query}").status_code == 200
    moderation.suspend_user(uid=alice.uid)
    assert client.get(f"{private.path}?{private.query}").status_code == 404


def test_remote_images_are_kept_images_only_served_from_here_and_not_from_a_domain_whose_media_are_rejected(
    client, alice, rob
):
    make_follow(uid=alice.uid, other_uid=rob.actor.uid, notify_followee=False)
    video = {"type": "Document", "mediaType": "video/mp4", "url": "https://remote.example/files/clip.mp4"}
    elsewhere = {**CAT, "url": "javascript:alert(1)"}
    created = public_create(rob, 1, "Look 1", attachment=[CAT, video, elsewhere])
    assert post_signed(client, rob, created).status_code == 202
    assert run_queued() == ["stored"]
    assert client.login(username="alice", password=PASSWORD)
    page = client.get("/").content.decode()
    [status_id] = [job.kwargs["status_id"] for job in queued_jobs() if job.func_name.endswith("cache_remote_images")]
    [item] = selectors.get_status(status_id=status_id).media
    assert f'src="/media/{item.token}/preview" alt="A cat on a mat"' in page  # its copy here (fetched by a job)
    assert 'src="https://remote.example' not in page  # never loaded from the other server
    assert "clip.mp4" not in page and "javascript:" not in page

    root = User.objects.create_superuser(username="root", password=PASSWORD)
    domain_blocks.block_domain(
        moderator=root, domain="remote.example", severity="noop", reject_media=True, reason="gore"
    )
    dog = {**CAT, "url": "https://remote.example/files/dog.png"}
    assert post_signed(client, rob, public_create(rob, 2, "Look 2", attachment=[dog])).status_code == 202
    assert run_queued() == ["stored"]
    page = client.get("/").content.decode()
    assert "Look 2" in page and "dog.png" not in page


def test_an_image_stored_before_copies_were_kept_is_still_a_link_to_its_server(client, alice, rob):
    make_follow(uid=alice.uid, other_uid=rob.actor.uid, notify_followee=False)
    assert post_signed(client, rob, public_create(rob, 3, "Look 3", attachment=[CAT])).status_code == 202
    assert run_queued() == ["stored"]
    [status_id] = [job.kwargs["status_id"] for job in queued_jobs() if job.func_name.endswith("cache_remote_images")]
    # As such a post's hash keeps it: the address there, no token.
    old = MediaItem(
        id=0,
        token="",
        width=800,
        height=600,
        preview_width=800,
        preview_height=600,
        description="A cat on a mat",
        remote_url=CAT["url"],
    )
    timelines_store.statuses.write_status(status_id, {"media": stored_media([old])})
    assert client.login(username="alice", password=PASSWORD)
    page = client.get("/").content.decode()
    assert f'href="{CAT["url"]}"' in page and "Image: A cat on a mat" in page
    assert f'src="{CAT["url"]}"' not in page

"""Large images processed by a job (issue 21): the upload answers at once, the client API says "processing" as
Mastodon does (202 with ``url: null``, then 206, then 200) and refuses a post carrying it until it is ready (422);
the post box's post waits for its images and appears once the job has run. Small images stay in the request."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from api.tests.helpers import Api, person, token_for
from media import services
from media.models import Attachment, PendingPost
from media.tests import images
from socialsite.tests.people import logged_in
from timelines import exceptions, queue, selectors
from timelines import services as timelines
from timelines.services import media_jobs
from timelines.worker import Worker

pytestmark = pytest.mark.django_db

LARGE = (400, 300)  # 120,000 pixels: above the threshold these tests set
SMALL = (60, 40)


@pytest.fixture(autouse=True)
def low_threshold(settings):  # type: ignore[no-untyped-def]
    settings.SOCIALSITE_MEDIA_SYNC_MAX_PIXELS = 100_000


def run_jobs() -> None:
    """Drain the queue with the site's worker class, in this process (so it sees this test's rows and files)."""
    jobs = queue.get_queue()
    Worker([jobs], connection=jobs.connection).work(burst=True)


def stored_files() -> list[str]:
    root = Path(settings.MEDIA_ROOT)
    return sorted(p.name for p in root.rglob("*") if p.is_file()) if root.exists() else []


def profile_of(uid: int) -> list[int]:
    return [entry.id for entry in selectors.get_status_messages(uid=uid, timeline="profile", count=10)]


def api_of(login: str) -> Api:
    person(login)
    return Api(token_for(login))


def test_a_large_upload_answers_202_then_206_then_200_and_a_post_waits_for_it():
    ada = api_of("ada")
    big = SimpleUploadedFile("big.jpg", images.jpeg(LARGE))
    answer = ada.post("/api/v2/media", {"file": big, "description": "Big"})
    assert answer.status_code == 202, answer.content
    entity = answer.json()
    assert entity["url"] is None and entity["preview_url"] is None and entity["description"] == "Big"
    assert stored_files() == ["upload"]  # kept as it came, under a name never served

    assert ada.get(f"/api/v1/media/{entity['id']}").status_code == 206
    early = ada.post("/api/v1/statuses", {"status": "too soon", "media_ids[]": [entity["id"]]})
    assert early.status_code == 422
    assert "not finished processing" in early.json()["error"]
    token = Attachment.objects.get(pk=entity["id"]).token
    assert ada.client.get(f"/media/{token}/original").status_code == 404

    run_jobs()
    ready = ada.get(f"/api/v1/media/{entity['id']}")
    assert ready.status_code == 200
    assert ready.json()["url"].endswith(f"/media/{token}/original")
    assert ready.json()["blurhash"] and ready.json()["meta"]["small"]["width"] == 400
    assert sorted(stored_files()) == ["original.jpg", "preview.jpg"]  # the upload as it came is gone
    posted = ada.post("/api/v1/statuses", {"status": "now", "media_ids[]": [entity["id"]]})
    assert posted.status_code == 200, posted.content
    assert posted.json()["media_attachments"][0]["description"] == "Big"


def test_small_uploads_and_v1_uploads_are_processed_in_the_request():
    ada = api_of("ada")
    small = ada.post("/api/v2/media", {"file": SimpleUploadedFile("s.jpg", images.jpeg(SMALL))})
    assert small.status_code == 200 and small.json()["url"]
    large_v1 = ada.post("/api/v1/media", {"file": SimpleUploadedFile("b.jpg", images.jpeg(LARGE))})
    assert large_v1.status_code == 200 and large_v1.json()["url"]
    assert queue.get_queue().count == 0


def test_a_large_upload_only_decoding_finds_damaged_is_refused_with_422_and_leaves_no_file():
    ada = api_of("ada")
    truncated = images.jpeg(LARGE)[:-400]  # whole headers, cut pixels: only a full decode notices
    answer = ada.post("/api/v2/media", {"file": SimpleUploadedFile("cut.jpg", truncated)})
    assert answer.status_code == 202, answer.content
    run_jobs()
    failed = ada.get(f"/api/v1/media/{answer.json()['id']}")
    assert failed.status_code == 422
    assert "damaged or incomplete" in failed.json()["error"]
    assert stored_files() == []


def _compose(client, *bodies: bytes, message: str = ""):  # type: ignore[no-untyped-def]
    data: dict[str, object] = {"message": message}
    data["images"] = [SimpleUploadedFile(f"p{i}.jpg", body) for i, body in enumerate(bodies)]
    for number in range(1, len(bodies) + 1):
        data[f"description-{number}"] = f"Picture {number}"
    return client.post("/compose", data, follow=True)


def test_the_post_box_post_with_a_large_image_appears_once_its_images_are_processed():
    alice_client, alice = logged_in("alice")
    bob_client, bob = logged_in("bob")
    timelines.follow_user(uid=bob, other_uid=alice)
    page = _compose(alice_client, images.jpeg(LARGE), images.jpeg(LARGE), images.jpeg(SMALL), message="holiday")
    assert "Your post will appear as soon as its images are processed." in page.content.decode()
    assert profile_of(alice) == []
    assert "holiday" not in bob_client.get("/").content.decode()

    run_jobs()  # two jobs, one per large image; the one finishing last publishes the post, once
    [status_id] = profile_of(alice)
    status = selectors.get_status(status_id=status_id)
    assert status.message == "holiday"
    assert [item.description for item in status.media] == ["Picture 1", "Picture 2", "Picture 3"]
    assert (status.media[0].preview_width, status.media[0].preview_height) == (400, 300)
    assert all(item.blurhash for item in status.media)
    html = bob_client.get("/").content.decode()
    assert "holiday" in html and f"/media/{status.media[0].token}/preview" in html
    assert PendingPost.objects.count() == 0
    assert "upload" not in stored_files()


def test_a_waiting_post_whose_image_turns_out_damaged_is_dropped_with_its_files():
    alice_client, alice = logged_in("alice")
    _compose(alice_client, images.jpeg(LARGE)[:-400], images.jpeg(SMALL), message="broken")
    assert Attachment.objects.count() == 2
    run_jobs()
    assert profile_of(alice) == []
    assert Attachment.objects.count() == 0 and PendingPost.objects.count() == 0
    assert stored_files() == []


def test_a_waiting_post_refused_for_its_text_keeps_nothing():
    alice_client, _ = logged_in("alice")
    page = _compose(alice_client, images.jpeg(LARGE), message="x" * 600)
    assert page.status_code == 400
    assert "at most" in page.content.decode()
    assert Attachment.objects.count() == 0 and PendingPost.objects.count() == 0 and stored_files() == []
    assert queue.get_queue().count == 0


def test_a_post_of_a_processing_upload_is_refused_in_python_too():
    _, alice = logged_in("alice")
    picture = media_jobs.upload_image(owner=alice, data=images.jpeg(LARGE))
    assert picture.state == Attachment.PROCESSING
    with pytest.raises(exceptions.InvalidMedia, match="not finished processing"):
        timelines.post_status(uid=alice, message="soon", media_ids=[picture.pk])
    run_jobs()
    assert services.get_own(owner=alice, media_id=picture.pk).ready
    assert timelines.post_status(uid=alice, message="now", media_ids=[picture.pk])


def test_a_reply_with_a_large_image_waits_too_and_answers_its_post_once_published():
    alice_client, alice = logged_in("alice")
    _, bob = logged_in("bob")
    parent = timelines.post_status(uid=bob, message="Show me the view")
    data = {"message": "Here it is", "images": [SimpleUploadedFile("v.jpg", images.jpeg(LARGE))]}
    page = alice_client.post(f"/@bob/{parent}/reply", data, follow=True)
    assert "Your post will appear as soon as its images are processed." in page.content.decode()
    assert page.redirect_chain[-1][0] == f"/@bob/{parent}"
    run_jobs()
    [reply_id] = profile_of(alice)
    reply = selectors.get_status(status_id=reply_id)
    assert reply.in_reply_to == parent and len(reply.media) == 1


def test_a_post_kept_for_its_images_is_checked_first_and_refused_at_once_when_it_could_not_be_published():
    _, alice = logged_in("alice")
    _, bob = logged_in("bob")
    parent = timelines.post_status(uid=bob, message="soon deleted")
    timelines.delete_status(uid=bob, status_id=parent)
    picture = media_jobs.upload_image(owner=alice, data=images.jpeg(LARGE))
    with pytest.raises(exceptions.StatusNotFound):
        media_jobs.post_when_ready(uid=alice, media_ids=[picture.pk], fields={"message": "late", "in_reply_to": parent})
    with pytest.raises(exceptions.InvalidMessage):
        media_jobs.post_when_ready(uid=alice, media_ids=[picture.pk], fields={"message": "x" * 600})
    with pytest.raises(exceptions.InvalidVisibility):
        media_jobs.post_when_ready(uid=alice, media_ids=[picture.pk], fields={"message": "", "visibility": "secret"})
    assert PendingPost.objects.count() == 0

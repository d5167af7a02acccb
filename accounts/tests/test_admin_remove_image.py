"""A moderator removes one image of a reported post (issue 21): the post stays with its other images and text;
the image is gone from its pages, its edit history and the API, its file stops loading at once, and the removal
is in the moderation log. A reason is required; members cannot do it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.test import Client

from accounts.models import User
from accounts.services import report
from accounts.tests.conftest import logged_in
from media import services as media_services
from media.models import Attachment
from media.tests import images
from timelines import selectors, services, store

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path / "media"


def files_of(token: str) -> list[Path]:
    folder = Path(settings.MEDIA_ROOT) / token
    return list(folder.iterdir()) if folder.exists() else []


@pytest.fixture
def reported(alice: User, bob: User) -> tuple[int, Attachment, Attachment]:
    """alice's post of two images, edited once (its history holds both images too); bob follows her."""
    services.follow_user(uid=bob.uid, other_uid=alice.uid)
    bad = media_services.upload(owner=alice.uid, data=images.jpeg((300, 200)), description="The bad one")
    fine = media_services.upload(owner=alice.uid, data=images.png((90, 90)), description="The fine one")
    status_id = services.post_status(uid=alice.uid, message="two pictures", media_ids=[bad.pk, fine.pk])
    services.edit_status(uid=alice.uid, status_id=status_id, message="two pictures, edited")
    return status_id, bad, fine


def remove_url(status_id: int, media_id: int) -> str:
    return f"/admin/moderation/statuses/{status_id}/images/{media_id}/remove/"


def test_removing_one_image_keeps_the_post_and_takes_the_image_out_everywhere(
    moderator_client: Client, alice: User, bob: User, reported
):
    status_id, bad, fine = reported
    bob_client = logged_in(bob)
    assert f"/media/{bad.token}/preview" in bob_client.get("/").content.decode()
    assert "The bad one" in bob_client.get(f"/@alice/{status_id}/history").content.decode()
    listing = moderator_client.get("/admin/moderation/statuses/").content.decode()
    assert f'href="{remove_url(status_id, bad.pk)}?' in listing and "Remove image" in listing

    form = moderator_client.get(remove_url(status_id, bad.pk))
    assert form.status_code == 200 and "Only this image is removed" in form.content.decode()
    done = moderator_client.post(remove_url(status_id, bad.pk), {"reason": "Graphic violence"})
    assert done.status_code == 302

    status = selectors.get_status(status_id=status_id)
    assert status.message == "two pictures, edited" and [item.id for item in status.media] == [fine.pk]
    home = bob_client.get("/").content.decode()
    assert f"/media/{bad.token}/" not in home and f"/media/{fine.token}/preview" in home
    history = bob_client.get(f"/@alice/{status_id}/history")
    assert history.status_code == 200 and "The bad one" not in history.content.decode()
    _, versions = store.edits.get_history(status_id)
    assert all(bad.pk not in [item["id"] for item in json.loads(v).get("media", [])] for v in versions)
    edits, kept, _ = store.edits.version_counts([status_id])[0]
    assert edits == kept  # the audit's invariant holds
    for client in (bob_client, moderator_client, logged_in(alice)):
        assert client.get(f"/media/{bad.token}/preview").status_code == 404
    assert files_of(bad.token) == [] and not Attachment.objects.filter(pk=bad.pk).exists()
    assert files_of(fine.token)
    entry = LogEntry.objects.get(change_message__startswith="Removed image")
    assert entry.change_message == f"Removed image {bad.pk} of post {status_id}: Graphic violence"


def test_the_last_image_of_a_post_can_go_too_and_a_second_removal_is_a_404(moderator_client: Client, alice: User):
    only = media_services.upload(owner=alice.uid, data=images.jpeg(), description="Only one")
    status_id = services.post_status(uid=alice.uid, message="just this", media_ids=[only.pk])
    assert moderator_client.post(remove_url(status_id, only.pk), {"reason": "Spam"}).status_code == 302
    assert selectors.get_status(status_id=status_id).media == ()
    assert moderator_client.post(remove_url(status_id, only.pk), {"reason": "Spam"}).status_code == 404


def test_a_reason_is_required_and_members_cannot_remove_images(moderator_client: Client, bob: User, reported):
    status_id, bad, _ = reported
    refused = moderator_client.post(remove_url(status_id, bad.pk), {"reason": "  "})
    assert refused.status_code == 400
    assert len(selectors.get_status(status_id=status_id).media) == 2
    member = logged_in(bob).post(remove_url(status_id, bad.pk), {"reason": "I dislike it"})
    assert member.status_code in (302, 403)  # the admin's log-in page, or refused
    assert len(selectors.get_status(status_id=status_id).media) == 2 and files_of(bad.token)


def test_a_reported_posts_images_each_offer_remove_image_on_the_report(
    moderator_client: Client, alice: User, bob: User, reported
):
    status_id, bad, fine = reported
    sent = report(reporter=bob, reported=alice, reason="other", comment="the first picture", status_ids=[status_id])
    detail = moderator_client.get(f"/admin/accounts/report/{sent.pk}/change/").content.decode()
    for picture in (bad, fine):
        assert f'href="{remove_url(status_id, picture.pk)}"' in detail
    assert moderator_client.post(remove_url(status_id, bad.pk), {"reason": "Reported, graphic"}).status_code == 302
    detail = moderator_client.get(f"/admin/accounts/report/{sent.pk}/change/").content.decode()
    assert remove_url(status_id, bad.pk) not in detail and remove_url(status_id, fine.pk) in detail

"""Editing a post's images (issues 19 and 21): the edit replaces images and alt texts, refuses what a new post
refuses with nothing changed, and the history keeps each version's images."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from media import limits, services
from media.models import Attachment
from media.tests import images
from socialsite.tests.people import logged_in
from timelines import exceptions, selectors
from timelines import limits as timeline_limits
from timelines import services as timelines

pytestmark = pytest.mark.django_db


def ids(items) -> list[int]:  # type: ignore[no-untyped-def]
    return [item.id for item in items]


def test_an_edit_replaces_an_image_and_the_history_keeps_the_old_one():
    _, alice = logged_in("alice")
    first = services.upload(owner=alice, data=images.jpeg(), description="A red flag")
    second = services.upload(owner=alice, data=images.png(), description="A green tile")
    status_id = timelines.post_status(uid=alice, message="pictures", media_ids=[first.pk])

    assert timelines.edit_status(uid=alice, status_id=status_id, message="pictures", media_ids=[second.pk]) is True

    status = selectors.get_status(status_id=status_id)
    assert ids(status.media) == [second.pk] and status.media[0].description == "A green tile"
    history = selectors.get_status_history(status_id=status_id)
    assert [ids(version.media) for version in history] == [[second.pk], [first.pk]]
    assert history[1].media[0].description == "A red flag"
    # The dropped image stays the post's (the history shows it) until the post goes, then both go.
    assert set(Attachment.objects.filter(status_id=status_id).values_list("pk", flat=True)) == {first.pk, second.pk}
    timelines.delete_status(uid=alice, status_id=status_id)
    assert not Attachment.objects.filter(pk__in=[first.pk, second.pk]).exists()


def test_an_edit_changes_an_alt_text_and_the_history_keeps_the_old_one():
    _, alice = logged_in("alice")
    picture = services.upload(owner=alice, data=images.jpeg(), description="A flg")
    status_id = timelines.post_status(uid=alice, message="", media_ids=[picture.pk])

    timelines.edit_status(uid=alice, status_id=status_id, message="", descriptions={picture.pk: "A flag"})

    assert selectors.get_status(status_id=status_id).media[0].description == "A flag"
    assert Attachment.objects.get(pk=picture.pk).description == "A flag"
    history = selectors.get_status_history(status_id=status_id)
    assert [version.media[0].description for version in history] == ["A flag", "A flg"]
    with pytest.raises(exceptions.InvalidMedia):
        timelines.edit_status(
            uid=alice,
            status_id=status_id,
            message="",
            descriptions={picture.pk: "x" * (limits.MAX_DESCRIPTION_LENGTH + 1)},
        )
    # No text and no image left is refused.
    with pytest.raises(exceptions.InvalidMessage):
        timelines.edit_status(uid=alice, status_id=status_id, message="", media_ids=[])


def test_someone_elses_upload_or_a_fifth_image_is_refused_with_nothing_changed():
    _, alice = logged_in("alice")
    _, bob = logged_in("bob")
    mine = [services.upload(owner=alice, data=images.jpeg()) for _ in range(limits.MAX_PER_POST + 1)]
    bobs = services.upload(owner=bob, data=images.jpeg())
    status_id = timelines.post_status(uid=alice, message="one", media_ids=[mine[0].pk])

    with pytest.raises(exceptions.InvalidMedia):
        timelines.edit_status(uid=alice, status_id=status_id, message="two", media_ids=[mine[0].pk, bobs.pk])
    with pytest.raises(exceptions.InvalidMedia, match="at most 4"):
        timelines.edit_status(uid=alice, status_id=status_id, message="five", media_ids=[m.pk for m in mine])

    status = selectors.get_status(status_id=status_id)
    assert (status.message, ids(status.media), status.edits) == ("one", [mine[0].pk], 0)
    assert Attachment.objects.get(pk=bobs.pk).status_id is None
    assert Attachment.objects.filter(status_id=status_id).count() == 1


def test_an_edit_the_script_refuses_releases_the_uploads_it_claimed_and_keeps_the_old_alt_text(monkeypatch):
    """The uploads are claimed and alt texts stored in SQL before the script runs; a refusal rolls them back."""
    monkeypatch.setattr(timeline_limits, "MAX_STATUS_VERSIONS", 2)
    _, alice = logged_in("alice")
    _, bob = logged_in("bob")
    kept = services.upload(owner=alice, data=images.jpeg(), description="A flag")
    status_id = timelines.post_status(uid=alice, message="one", media_ids=[kept.pk])
    timelines.edit_status(uid=alice, status_id=status_id, message="two")
    added = services.upload(owner=alice, data=images.jpeg())

    with pytest.raises(exceptions.TooManyVersions):
        timelines.edit_status(
            uid=alice,
            status_id=status_id,
            message="three",
            media_ids=[kept.pk, added.pk],
            descriptions={kept.pk: "A red flag"},
        )
    assert Attachment.objects.get(pk=added.pk).status_id is None
    assert Attachment.objects.get(pk=kept.pk).description == "A flag"
    assert [item.description for item in selectors.get_status(status_id=status_id).media] == ["A flag"]

    bobs_post = timelines.post_status(uid=bob, message="bob's")
    with pytest.raises(exceptions.NotOwner):
        timelines.edit_status(uid=alice, status_id=bobs_post, message="mine", media_ids=[added.pk])
    assert Attachment.objects.get(pk=added.pk).status_id is None


# --- the pages ----------------------------------------------------------------------------------------------------


def test_the_edit_page_lists_the_images_and_saves_a_removal_an_alt_text_and_an_added_image_with_its_history():
    client, alice = logged_in("alice")
    first = services.upload(owner=alice, data=images.jpeg(), description="A red flg")
    second = services.upload(owner=alice, data=images.png(), description="A green tile")
    status_id = timelines.post_status(uid=alice, message="two", media_ids=[first.pk, second.pk])
    page = f"/@alice/{status_id}/edit"

    html = client.get(page).content.decode()
    assert html.count("Describe this image") == 2 and "Add images" in html
    assert f'name="alt-{first.pk}"' in html and f'name="remove" value="{second.pk}"' in html

    response = client.post(
        page,
        {
            "message": "",
            "with-images": "1",
            f"alt-{first.pk}": "A red flag",
            f"alt-{second.pk}": "A green tile",
            "remove": [str(second.pk)],
            "images": [SimpleUploadedFile("blue.jpg", images.jpeg((40, 30)))],
            "description-1": "A blue square",
        },
    )
    assert response.status_code == 302
    status = selectors.get_status(status_id=status_id)
    assert status.message == ""
    assert [item.description for item in status.media] == ["A red flag", "A blue square"]

    history = client.get(f"/@alice/{status_id}/history").content.decode()
    alts = re.findall(r'<img src="/media/[^"]+/preview" alt="([^"]*)"', history)
    assert alts == ["A red flag", "A blue square", "A red flg", "A green tile"]

    # Five images are refused with the form again and nothing changed, no file of the refused ones kept.
    files_before = Attachment.objects.count()
    response = client.post(
        page,
        {
            "message": "five",
            "with-images": "1",
            "images": [SimpleUploadedFile(f"{n}.jpg", images.jpeg()) for n in range(3)],
        },
    )
    assert response.status_code == 400 and "at most 4" in response.content.decode()
    assert Attachment.objects.count() == files_before
    assert selectors.get_status(status_id=status_id).message == ""

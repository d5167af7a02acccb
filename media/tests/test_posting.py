"""Posting with images (issue 21): up to four of one's own unposted uploads with their alt texts, in the post box
and the Python API; refused inputs write nothing and leave no file behind; the status hash keeps the attachment
ids with a display copy, so a home page of image posts costs what a page without images costs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from media import limits, services
from media.models import Attachment
from media.tests import images
from socialsite import redis_client
from socialsite.tests.people import logged_in
from streaming import events as stream_events
from timelines import exceptions, keys, selectors
from timelines import limits as timeline_limits
from timelines import services as timelines
from timelines.tests.test_web import HOME_ROUND_TRIPS, redis_traffic

pytestmark = pytest.mark.django_db


def stored_files() -> list[Path]:
    root = Path(settings.MEDIA_ROOT)
    return [path for path in root.rglob("*") if path.is_file()] if root.exists() else []


def profile_ids(uid: int) -> list[int]:
    return [entry.id for entry in selectors.get_status_messages(uid=uid, timeline="profile", count=10)]


def test_a_post_carries_its_images_in_order_with_their_alt_texts():
    _, alice = logged_in("alice")
    first = services.upload(owner=alice, data=images.jpeg((800, 600)), description="A red and blue flag")
    second = services.upload(owner=alice, data=images.png((300, 300)), description="A green square")
    status_id = timelines.post_status(uid=alice, message="two pictures", media_ids=[second.pk, first.pk])

    status = selectors.get_status(status_id=status_id)
    assert [item.id for item in status.media] == [second.pk, first.pk]
    assert [item.description for item in status.media] == ["A green square", "A red and blue flag"]
    assert (status.media[1].width, status.media[1].height) == (800, 600)
    assert status.media[1].preview_url == f"/media/{first.token}/preview"
    # Redis keeps references (the attachment ids) with their display copy; the files and owner stay in SQL.
    stored = json.loads(redis_client.get_redis().hget(keys.status(status_id), "media"))
    assert [item["id"] for item in stored] == [second.pk, first.pk]
    assert set(Attachment.objects.filter(status_id=status_id).values_list("pk", flat=True)) == {first.pk, second.pk}


def test_a_post_of_images_alone_needs_no_text_but_a_post_of_nothing_is_refused():
    _, alice = logged_in("alice")
    picture = services.upload(owner=alice, data=images.jpeg(), description="Just this")
    status_id = timelines.post_status(uid=alice, message="", media_ids=[picture.pk])
    assert selectors.get_status(status_id=status_id).message == ""
    with pytest.raises(exceptions.InvalidMessage):
        timelines.post_status(uid=alice, message="  ")


def test_someone_elses_upload_a_posted_one_or_a_fifth_image_is_refused_with_nothing_written():
    _, alice = logged_in("alice")
    _, bob = logged_in("bob")
    bobs = services.upload(owner=bob, data=images.jpeg())
    with pytest.raises(exceptions.InvalidMedia):
        timelines.post_status(uid=alice, message="stolen", media_ids=[bobs.pk])
    assert profile_ids(alice) == []
    assert Attachment.objects.get(pk=bobs.pk).status_id is None

    mine = [services.upload(owner=alice, data=images.jpeg()) for _ in range(limits.MAX_PER_POST + 1)]
    with pytest.raises(exceptions.InvalidMedia, match="at most 4"):
        timelines.post_status(uid=alice, message="five", media_ids=[m.pk for m in mine])
    posted = timelines.post_status(uid=alice, message="one", media_ids=[mine[0].pk])
    with pytest.raises(exceptions.InvalidMedia):
        timelines.post_status(uid=alice, message="again", media_ids=[mine[0].pk])
    with pytest.raises(exceptions.InvalidMedia):
        timelines.post_status(uid=alice, message="junk", media_ids=["x1"])
    assert profile_ids(alice) == [posted]


def test_deleting_a_post_deletes_its_files():
    _, alice = logged_in("alice")
    picture = services.upload(owner=alice, data=images.jpeg())
    status_id = timelines.post_status(uid=alice, message="soon gone", media_ids=[picture.pk])
    assert len(stored_files()) == 2  # original and preview
    timelines.delete_status(uid=alice, status_id=status_id)
    assert stored_files() == []
    assert not Attachment.objects.filter(pk=picture.pk).exists()


# --- the pages ----------------------------------------------------------------------------------------------------


def _compose(client, files: list[tuple[bytes, str]], **fields: str):  # type: ignore[no-untyped-def]
    data: dict[str, object] = {"message": "", **fields}
    data["images"] = [SimpleUploadedFile(f"photo{i}.jpg", body) for i, (body, _) in enumerate(files)]
    for number, (_, description) in enumerate(files, start=1):
        data[f"description-{number}"] = description
    return client.post("/compose", data)


def test_the_post_box_posts_images_with_their_alt_texts_and_the_home_page_shows_a_lazy_grid():
    alice_client, alice = logged_in("alice")
    bob_client, bob = logged_in("bob")
    timelines.follow_user(uid=bob, other_uid=alice)
    response = _compose(
        alice_client, [(images.jpeg((900, 600)), "A flag, half blue"), (images.png((64, 64)), "A green tile")]
    )
    assert response.status_code == 302
    html = bob_client.get("/").content.decode()
    found = re.findall(
        r'<img src="(/media/[^"]+/preview)" alt="([^"]*)" width="(\d+)" height="(\d+)" loading="lazy"', html
    )
    assert [(alt, width, height) for _, alt, width, height in found] == [
        ("A flag, half blue", "640", "427"),
        ("A green tile", "64", "64"),
    ]
    assert 'class="media-grid media-2"' in html
    full = re.findall(r'<a class="media-item" href="(/media/[^"]+/original)" data-media-full', html)
    assert len(full) == 2
    assert bob_client.get(full[0]).status_code == 200  # bob follows alice: her public post's image is his to see


def test_the_post_box_refuses_a_fake_image_a_fifth_image_or_a_long_alt_text_and_keeps_no_file():
    client, _ = logged_in("alice")
    html_named_jpg = b"<html><body>not a picture</body></html>"
    cases = [
        ([(images.jpeg(), "fine"), (html_named_jpg, "fake")], "Image 2: This file is not a plain image"),
        ([(images.jpeg(), "")] * (limits.MAX_PER_POST + 1), "at most 4 images"),
        ([(images.jpeg(), "x" * (limits.MAX_DESCRIPTION_LENGTH + 1))], "at most 1500 characters"),
        ([(b"", "empty")], "The file is empty"),
    ]
    for files, message in cases:
        response = _compose(client, files, message="with pictures")
        assert response.status_code == 400
        assert message in response.content.decode()
        assert Attachment.objects.count() == 0
        assert stored_files() == []


def test_a_refused_post_keeps_none_of_its_uploaded_images():
    client, _ = logged_in("alice")
    response = _compose(client, [(images.jpeg(), "fine")], message="x" * (timeline_limits.MAX_MESSAGE_LENGTH + 1))
    assert response.status_code == 400
    assert Attachment.objects.count() == 0 and stored_files() == []


def test_a_sensitive_post_hides_its_images_in_a_details_that_opens_without_javascript():
    client, _ = logged_in("alice")
    assert (
        _compose(client, [(images.jpeg(), "Something graphic")], message="careful", sensitive="on").status_code == 302
    )
    html = client.get("/").content.decode()
    found = re.search(
        r'<details class="sensitive-media">\s*<summary class="sensitive-summary">(.*?)</summary>(.*?)</details>',
        html,
        re.S,
    )
    assert found is not None
    summary, hidden = found.groups()
    assert "Show sensitive content" in summary and 'class="blurred"' in summary
    assert 'alt="Something graphic"' in hidden and "Something graphic" not in summary


def test_a_home_page_of_image_posts_costs_what_a_page_without_images_costs():
    """30 posts of 4 images each: the same Redis round trips as text posts, and no SQL query more."""
    client, amy = logged_in("amy")
    _, ben = logged_in("ben")
    timelines.follow_user(uid=amy, other_uid=ben)
    for i in range(timeline_limits.DEFAULT_PAGE_SIZE):
        timelines.post_status(uid=ben, message=f"text {i}")
    client.get("/")
    with redis_traffic() as text_only, CaptureQueriesContext(connection) as text_queries:
        client.get("/")

    picture = images.jpeg()
    for i in range(timeline_limits.DEFAULT_PAGE_SIZE):
        uploads = [services.upload(owner=ben, data=picture, description=f"image {j}") for j in range(4)]
        timelines.post_status(uid=ben, message=f"pictures {i}", media_ids=[u.pk for u in uploads])
    client.get("/")
    with redis_traffic() as pictures, CaptureQueriesContext(connection) as picture_queries:
        html = client.get("/").content.decode()

    assert len(re.findall(r'/preview" alt="image \d" width="\d+" height="\d+" loading="lazy"', html)) == (
        4 * timeline_limits.DEFAULT_PAGE_SIZE
    )
    if not redis_client.is_cluster():
        assert text_only["round_trips"] == pictures["round_trips"] == HOME_ROUND_TRIPS
    else:
        assert pictures["round_trips"] == text_only["round_trips"]
    assert len(picture_queries.captured_queries) == len(text_queries.captured_queries)


def test_the_streams_carry_a_media_array_of_urls_types_and_alt_texts():
    _, alice = logged_in("alice")
    picture = services.upload(owner=alice, data=images.jpeg((100, 50)), description="A flag")
    status_id = timelines.post_status(uid=alice, message="streamed", media_ids=[picture.pk])
    stored = redis_client.get_redis().hgetall(keys.status(status_id))
    line = json.loads(stream_events.wire_line(stream_events.StreamEvent(stored, "status.created")))
    assert line["media"] == [
        {
            "id": picture.pk,
            "type": "image",
            "url": f"/media/{picture.token}/original",
            "preview_url": f"/media/{picture.token}/preview",
            "width": 100,
            "height": 50,
            "description": "A flag",
        }
    ]


def test_a_post_of_images_alone_is_named_by_its_images_where_its_text_would_show():
    alice_client, alice = logged_in("alice")
    _, bob = logged_in("bob")
    picture = services.upload(owner=alice, data=images.jpeg(), description="A red flag")
    status_id = timelines.post_status(uid=alice, message="", media_ids=[picture.pk])
    timelines.like_status(uid=bob, status_id=status_id)
    assert "1 image: A red flag" in alice_client.get("/notifications").content.decode()
    assert "1 image: A red flag" in alice_client.get(f"/@alice/{status_id}").content.decode()  # its title


def test_an_image_without_alt_text_still_has_a_link_a_screen_reader_can_name():
    client, alice = logged_in("alice")
    pictures = [services.upload(owner=alice, data=images.jpeg()) for _ in range(2)]
    timelines.post_status(uid=alice, message="undescribed", media_ids=[p.pk for p in pictures])
    html = client.get("/").content.decode()
    assert 'aria-label="Image 2 of 2, not described"' in html


def test_two_posts_racing_for_one_upload_one_gets_it_and_the_other_nothing():
    _, alice = logged_in("alice")
    first, second = (services.upload(owner=alice, data=images.jpeg()) for _ in range(2))
    services.attach(owner=alice, media_ids=[first.pk], status_id=1001)  # the winner, between check and claim
    with pytest.raises(services.InvalidMedia):
        services.attach(owner=alice, media_ids=[second.pk, first.pk], status_id=1002)
    assert Attachment.objects.get(pk=second.pk).status_id is None  # all or none: the loser kept nothing
    assert Attachment.objects.get(pk=first.pk).status_id == 1001


def test_an_upload_over_the_size_limit_is_refused_before_it_is_read(settings):
    settings.SOCIALSITE_MEDIA_MAX_BYTES = 2000
    client, _ = logged_in("alice")
    response = _compose(client, [(images.jpeg((400, 400)), "big")], message="too big")
    assert response.status_code == 400 and "Images may be at most 1 kB." in response.content.decode()
    assert Attachment.objects.count() == 0 and stored_files() == []


def test_a_reply_can_carry_images_and_a_refused_one_keeps_none():
    alice_client, alice = logged_in("alice")
    bob_client, _ = logged_in("bob")
    status_id = timelines.post_status(uid=alice, message="show me")
    box = bob_client.get(f"/@alice/{status_id}/reply").content.decode()
    assert 'for="reply-' in box and 'name="images"' in box and 'enctype="multipart/form-data"' in box
    data = {"message": "", "images": [SimpleUploadedFile("a.jpg", images.jpeg())], "description-1": "Here it is"}
    response = bob_client.post(f"/@alice/{status_id}/reply", data)
    assert response.status_code == 302
    thread = alice_client.get(f"/@alice/{status_id}").content.decode()
    assert 'alt="Here it is"' in thread
    fake = {"message": "x", "images": [SimpleUploadedFile("a.jpg", b"<html>no</html>")], "description-1": "x"}
    refused = bob_client.post(f"/@alice/{status_id}/reply", fake)
    assert refused.status_code == 400 and "not a plain image" in refused.content.decode()
    assert Attachment.objects.count() == 1

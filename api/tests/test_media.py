"""The client API's media endpoints with bad input: each a 4xx with a JSON error, never a 500, and no file or
record left behind by a refused upload."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from api.tests.helpers import Api, person, token_for
from media import limits
from media.models import Attachment
from media.tests import images

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def api_of(login: str) -> Api:
    person(login)
    return Api(token_for(login))


def upload(api: Api, data: bytes, **fields: str):  # type: ignore[no-untyped-def]
    return api.post("/api/v2/media", {"file": SimpleUploadedFile("x.jpg", data), **fields})


def test_refused_uploads_answer_422_and_leave_nothing(media_root):
    ada = api_of("ada")
    cases = [
        ({}, "File can't be blank"),
        ({"file": SimpleUploadedFile("x.jpg", b"")}, "The file is empty"),
        ({"file": SimpleUploadedFile("x.jpg", b"<svg xmlns='http://www.w3.org/2000/svg'/>")}, "not a plain image"),
        ({"file": SimpleUploadedFile("x.png", images.png((10_000, 10_000)))}, "too many pixels"),
        ({"file": SimpleUploadedFile("x.jpg", images.jpeg()), "description": "x" * 1501}, "at most 1500"),
        ({"file": SimpleUploadedFile("x.jpg", images.jpeg()), "focus": "2,0"}, "focal point"),
    ]
    for data, message in cases:
        response = ada.post("/api/v1/media", data)
        assert response.status_code == 422, response.content
        assert message in response.json()["error"]
    assert Attachment.objects.count() == 0
    assert not media_root.exists() or not any(path.is_file() for path in media_root.rglob("*"))


def test_media_ids_on_a_status_are_checked(media_root):
    ada, bob = api_of("ada"), api_of("bob")
    mine = [upload(ada, images.jpeg()).json()["id"] for _ in range(limits.MAX_PER_POST + 1)]
    too_many = ada.post("/api/v1/statuses", {"status": "five", "media_ids[]": mine})
    assert too_many.status_code == 422 and "at most 4" in too_many.json()["error"]
    theirs = bob.post("/api/v1/statuses", {"status": "stolen", "media_ids[]": mine[:1]})
    assert theirs.status_code == 422
    assert bob.get(f"/api/v1/media/{mine[0]}").status_code == 404
    assert bob.get("/api/v1/media/x").status_code == 404
    posted = ada.post("/api/v1/statuses", {"media_ids[]": mine[:2]})
    assert posted.status_code == 200 and len(posted.json()["media_attachments"]) == 2
    changed = ada.client.put(
        f"/api/v1/media/{mine[0]}", {"description": "later"}, content_type="application/json", headers=ada.headers
    )
    assert changed.status_code == 422 and "posted already" in changed.json()["error"]
    assert ada.get(f"/api/v1/media/{mine[2]}").json()["description"] is None


def test_an_edit_takes_form_encoded_media_attributes_and_refuses_bad_ones_with_422(media_root):
    ada = api_of("ada")
    mine = [upload(ada, images.jpeg()).json()["id"] for _ in range(2)]
    posted = ada.post("/api/v1/statuses", {"status": "one", "media_ids[]": mine[:1]}).json()
    form = f"status=two&media_ids[]={mine[0]}&media_ids[]={mine[1]}"
    form += f"&media_attributes[][id]={mine[0]}&media_attributes[][description]=A+flag"
    edited = ada.client.put(
        f"/api/v1/statuses/{posted['id']}", form, content_type="application/x-www-form-urlencoded", headers=ada.headers
    )
    assert edited.status_code == 200, edited.content
    assert [(m["id"], m["description"]) for m in edited.json()["media_attachments"]] == [
        (mine[0], "A flag"),
        (mine[1], None),
    ]
    for body in ({"status": "x", "media_attributes": "A flag"}, {"status": "x", "media_ids": ["99999999999999999999"]}):
        refused = ada.client.put(
            f"/api/v1/statuses/{posted['id']}", body, content_type="application/json", headers=ada.headers
        )
        assert refused.status_code == 422, refused.content
    assert ada.get(f"/api/v1/statuses/{posted['id']}").json()["content"] == edited.json()["content"]

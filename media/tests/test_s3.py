"""Pictures on an S3-compatible object store (``SOCIALSITE_MEDIA_STORAGE=s3``, django-storages): against a real
S3 server the test starts itself (moto's server mode, speaking S3's HTTP protocol on a local port), uploads,
posting, policy-checked serving and deletion behave as on disk, and the objects are private."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from django.test import Client
from moto.server import ThreadedMotoServer

from media import services
from media.tests import images
from socialsite import media_storage
from socialsite.tests.people import logged_in
from timelines import services as timelines

pytestmark = pytest.mark.django_db

BUCKET = "socialsite-media"
CREDENTIALS = {"aws_access_key_id": "socialsite-test", "aws_secret_access_key": "socialsite-test-secret"}


@pytest.fixture(scope="module")
def s3_server() -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


@pytest.fixture
def bucket(s3_server: str, settings, monkeypatch) -> Any:  # type: ignore[no-untyped-def]
    """A fresh bucket, and the site's storage pointed at it exactly as the environment would configure it."""
    client = boto3.client("s3", endpoint_url=s3_server, region_name="us-east-1", **CREDENTIALS)
    client.create_bucket(Bucket=BUCKET)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", CREDENTIALS["aws_access_key_id"])
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", CREDENTIALS["aws_secret_access_key"])
    env = {
        "SOCIALSITE_MEDIA_STORAGE": "s3",
        "AWS_STORAGE_BUCKET_NAME": BUCKET,
        "AWS_S3_ENDPOINT_URL": s3_server,
        "AWS_S3_REGION_NAME": "us-east-1",
    }
    settings.STORAGES = {**settings.STORAGES, "default": media_storage.default_storage_setting(env)}
    yield client
    for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        client.delete_object(Bucket=BUCKET, Key=item["Key"])
    client.delete_bucket(Bucket=BUCKET)


def keys_in(client: Any) -> set[str]:
    return {item["Key"] for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", [])}


def test_pictures_live_in_the_bucket_privately_and_are_served_through_the_policy(bucket):
    alice, alice_uid = logged_in("alice")
    picture = services.upload(owner=alice_uid, data=images.jpeg((800, 600), gps=True), description="On S3")
    assert keys_in(bucket) == {f"media/{picture.token}/original.jpg", f"media/{picture.token}/preview.jpg"}
    stored = bucket.get_object(Bucket=BUCKET, Key=f"media/{picture.token}/original.jpg")["Body"].read()
    assert b"SpyCam" not in stored  # what is stored is the re-encoded picture, never the upload
    grants = bucket.get_object_acl(Bucket=BUCKET, Key=f"media/{picture.token}/original.jpg")["Grants"]
    assert not [g for g in grants if "AllUsers" in str(g.get("Grantee", {}).get("URI", ""))]

    status_id = timelines.post_status(uid=alice_uid, message="private", visibility="private", media_ids=[picture.pk])
    response = alice.get(f"/media/{picture.token}/original")
    assert response.status_code == 200 and b"".join(response.streaming_content) == stored
    assert Client().get(f"/media/{picture.token}/original").status_code == 404  # not in the audience
    assert Client().get(f"/media/{picture.token}/preview").status_code == 404

    timelines.delete_status(uid=alice_uid, status_id=status_id)
    assert keys_in(bucket) == set()


def test_a_refused_upload_leaves_no_object_and_a_missing_object_is_a_404(bucket):
    alice, alice_uid = logged_in("alice")
    with pytest.raises(services.processing.InvalidImage):
        services.upload(owner=alice_uid, data=images.jpeg(), description="x" * 1501)
    assert keys_in(bucket) == set()
    picture = services.upload(owner=alice_uid, data=images.png())
    bucket.delete_object(Bucket=BUCKET, Key=f"media/{picture.token}/preview.jpg")
    assert alice.get(f"/media/{picture.token}/preview").status_code == 404


def test_the_storage_setting_refuses_what_cannot_work():
    assert media_storage.default_storage_setting({})["BACKEND"].endswith("FileSystemStorage")
    with pytest.raises(media_storage.StorageSettingError, match="AWS_STORAGE_BUCKET_NAME"):
        media_storage.default_storage_setting({"SOCIALSITE_MEDIA_STORAGE": "s3"})
    with pytest.raises(media_storage.StorageSettingError, match="filesystem or s3"):
        media_storage.default_storage_setting({"SOCIALSITE_MEDIA_STORAGE": "ftp"})

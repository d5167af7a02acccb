"""Where pictures are stored (``STORAGES["default"]``, read by ``settings``): a directory by default, or an
S3-compatible object store through django-storages when ``SOCIALSITE_MEDIA_STORAGE=s3``.

For S3, the usual names: ``AWS_STORAGE_BUCKET_NAME`` (required), ``AWS_S3_ENDPOINT_URL`` (MinIO, Ceph, R2, ...;
empty for AWS), ``AWS_S3_REGION_NAME``, and the credentials as boto3 finds them (``AWS_ACCESS_KEY_ID`` and
``AWS_SECRET_ACCESS_KEY``, or an instance role): never in the settings file. Objects are private (no ACL is
sent, so the bucket's own, private by default, applies): the site reads them and serves them to the people the
post's policy allows (``timelines.views.media``), so the content security policy keeps ``img-src 'self'``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

FILESYSTEM = "filesystem"
S3 = "s3"


class StorageSettingError(ValueError):
    """A storage environment that cannot work (an unknown kind, S3 without a bucket)."""


def default_storage_setting(env: Mapping[str, str]) -> dict[str, Any]:
    kind = (env.get("SOCIALSITE_MEDIA_STORAGE") or FILESYSTEM).strip().lower()
    if kind == FILESYSTEM:
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    if kind != S3:
        raise StorageSettingError(f"SOCIALSITE_MEDIA_STORAGE must be {FILESYSTEM} or {S3}, not {kind!r}")
    bucket = (env.get("AWS_STORAGE_BUCKET_NAME") or "").strip()
    if not bucket:
        raise StorageSettingError("SOCIALSITE_MEDIA_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME")
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": env.get("AWS_S3_ENDPOINT_URL") or None,
            "region_name": env.get("AWS_S3_REGION_NAME") or None,
            "location": env.get("SOCIALSITE_MEDIA_S3_PREFIX", "media"),
            "default_acl": None,
            # Names are random tokens: no existence check (one request less per file).
            "file_overwrite": True,
        },
    }

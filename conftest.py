"""Test set-up shared by every app: a real Redis for the session, flushed before each test.

Tests never touch the developer's data: unless ``TEST_REDIS_URL`` names a server to use (it is flushed!),
the session starts its own embedded Redis in a temporary directory. Child processes the tests start (RQ
workers, daphne) inherit ``REDIS_URL`` and ``SOCIALSITE_VAR_DIR`` and so use the same server.

With ``SOCIALSITE_TEST_CLUSTER=1`` (``bin/test``'s second run) the session also starts a local three-primary
Redis Cluster (``socialsite.embedded_cluster``) and puts the social data on it (``REDIS_CLUSTER_URL``, which
child processes inherit too); jobs and the cache stay on the single Redis, as in production.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from django.conf import settings

from socialsite import embedded_cluster, embedded_redis, redis_client

_session: dict[str, object] = {}


def pytest_configure(config: pytest.Config) -> None:
    var_dir = Path(tempfile.mkdtemp(prefix="socialsite-test-"))
    _session["var_dir"] = var_dir
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        _session["embedded"] = None
    else:
        _session["embedded"] = var_dir / "redis"
        url = embedded_redis.ensure_running(var_dir / "redis")
    os.environ["SOCIALSITE_VAR_DIR"] = str(var_dir)
    os.environ["REDIS_URL"] = url
    settings.VAR_DIR = var_dir
    settings.MEDIA_ROOT = var_dir / "media"
    settings.EMBEDDED_REDIS_DIR = None
    settings.REDIS_URL = url
    settings.RQ_QUEUES = {"default": {**settings.RQ_QUEUES["default"], "URL": url}}
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": url}}
    # A file database, so threads and child processes see the same rows as the test.
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = str(var_dir / "test-db.sqlite3")
    if os.environ.get("SOCIALSITE_TEST_CLUSTER") == "1":
        cluster = embedded_cluster.start(var_dir / "cluster")
        _session["cluster"] = cluster
        os.environ["REDIS_CLUSTER_URL"] = cluster.url
        settings.REDIS_CLUSTER_URL = cluster.url
    else:
        os.environ.pop("REDIS_CLUSTER_URL", None)
        settings.REDIS_CLUSTER_URL = None
    settings.STATIC_ROOT = var_dir / "staticfiles"
    settings.STATIC_ROOT.mkdir()
    # DEBUG is off by default, which picks WhiteNoise's manifest storage: pages rendered in-process would need a
    # collectstatic first. Servers the tests start (daphne) collect and use the manifest, as in production.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # Child processes sign with this process's key (their var/ is another directory, with its own generated key),
    # so a session made here is valid there.
    os.environ.setdefault("DJANGO_SECRET_KEY", settings.SECRET_KEY)
    # Password hashing is deliberately slow; tests check behaviour, not the hasher.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    redis_client.reset()


def pytest_unconfigure(config: pytest.Config) -> None:
    redis_client.reset()
    if _session.get("cluster"):
        _session["cluster"].stop()  # type: ignore[attr-defined]
    if _session.get("embedded"):
        embedded_redis.stop(_session["embedded"])  # type: ignore[arg-type]
    if _session.get("var_dir"):
        shutil.rmtree(_session["var_dir"], ignore_errors=True)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def redis_db():
    """The session's Redis (and cluster), emptied before the test. Fails (never skips) when it is
    unreachable."""
    client = redis_client.get_redis()
    client.ping()
    for server in redis_client.primaries():
        server.flushall()
    redis_client.get_job_redis().flushall()
    yield client

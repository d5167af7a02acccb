"""Test set-up shared by every app: a real Redis for the session, flushed before each test.

Tests never touch the developer's data: unless ``TEST_REDIS_URL`` names a server to use (it is flushed!),
the session starts its own embedded Redis in a temporary directory. Child processes the tests start (RQ
workers, daphne) inherit ``REDIS_URL`` and ``SOCIALSITE_VAR_DIR`` and so use the same server.

With ``SOCIALSITE_TEST_CLUSTER=1`` (``bin/test``'s second run) the session also starts a local three-primary
Redis Cluster (``socialsite.embedded_cluster``) and puts the social data on it (``REDIS_CLUSTER_URL``, which
child processes inherit too); jobs and the cache stay on the single Redis, as in production. That run also puts
the SQL side on PostgreSQL, the database production uses: a throwaway server the session starts in a temporary
directory (``socialsite.embedded_postgres``) and stops at its end; ``DATABASE_URL`` names it for child processes.
The other run keeps SQLite, in a file so that threads and child processes see the test's rows.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

import dj_database_url
import pytest
from django.conf import settings
from django.db import connections

from socialsite import embedded_cluster, embedded_postgres, embedded_redis, redis_client
from socialsite.tests import redis_snapshot

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
    if os.environ.get("SOCIALSITE_TEST_CLUSTER") == "1":
        _use_throwaway_postgres()
        cluster = embedded_cluster.start(var_dir / "cluster")
        _session["cluster"] = cluster
        os.environ["REDIS_CLUSTER_URL"] = cluster.url
        settings.REDIS_CLUSTER_URL = cluster.url
    else:
        os.environ.pop("REDIS_CLUSTER_URL", None)
        settings.REDIS_CLUSTER_URL = None
        if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
            # A file database, so threads and child processes see the same rows as the test.
            settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = str(var_dir / "test-db.sqlite3")
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


def _use_throwaway_postgres() -> None:
    """Point this process and its children at a fresh PostgreSQL server. The test database pytest-django creates
    gets the same name as the one ``DATABASE_URL`` names, so children started during a test use it."""
    server = embedded_postgres.start()
    _session["postgres"] = server
    url = server.url("socialsite")
    os.environ["DATABASE_URL"] = url
    database = settings.DATABASES["default"]
    # Changed in place: Django's connection handler may already hold this very dictionary (with its defaults
    # filled in, which configure_settings fills in again) and a connection made from it.
    database.update(dj_database_url.parse(url, conn_max_age=database["CONN_MAX_AGE"], conn_health_checks=True))
    database["OPTIONS"] = {}  # SQLite's
    database["TEST"] = {"NAME": database["NAME"]}
    connections.configure_settings(settings.DATABASES)
    with contextlib.suppress(AttributeError):  # no connection made yet
        del connections["default"]


def pytest_unconfigure(config: pytest.Config) -> None:
    redis_client.reset()
    if _session.get("postgres"):
        connections.close_all()
        _session["postgres"].stop()  # type: ignore[attr-defined]
    if _session.get("cluster"):
        _session["cluster"].stop()  # type: ignore[attr-defined]
    if _session.get("embedded"):
        embedded_redis.stop(_session["embedded"])  # type: ignore[arg-type]
    if _session.get("var_dir"):
        shutil.rmtree(_session["var_dir"], ignore_errors=True)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def django_db_keepdb(request: pytest.FixtureRequest) -> bool:
    """pytest-django's: whether the test database is kept at the end. The PostgreSQL run's whole server is thrown
    away then, so its database is not dropped first (which would fail while the request threads of the site run
    in-process still hold their long-lived connections)."""
    return bool(_session.get("postgres")) or bool(request.config.getvalue("reuse_db"))


@pytest.fixture(autouse=True)
def redis_db():
    """The session's Redis (and cluster), emptied before the test. Fails (never skips) when it is
    unreachable."""
    client = redis_client.get_redis()
    client.ping()
    redis_snapshot.flush()
    yield client

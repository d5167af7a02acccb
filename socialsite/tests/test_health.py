"""``GET /healthz`` says whether the site can work: ``ok`` while its Redis answers, 503 with a JSON body naming
what is down while it does not, and ``ok`` again once it is back. Checked against a real Redis that is stopped
and started again."""

from __future__ import annotations

import pytest
from django.test import Client

from socialsite import embedded_redis, redis_client


@pytest.fixture
def own_redis(settings, tmp_path):
    """A second embedded Redis, started for the test; the site's jobs and cache (``REDIS_URL``) point at it,
    and so does the social data unless it lives on the session's cluster."""
    directory = tmp_path / "redis"
    url = embedded_redis.ensure_running(directory)
    settings.REDIS_URL = url
    redis_client.reset()
    yield directory
    embedded_redis.stop(directory)
    redis_client.reset()


def test_healthz_answers_503_naming_redis_while_it_is_stopped_and_ok_once_it_is_back(own_redis):
    client = Client()
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"

    assert embedded_redis.stop(own_redis)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["status"] == "unavailable" and "redis" in body["down"]
    assert body["down"]["redis"]  # why: the error, readable
    assert response["Retry-After"]
    assert response["Content-Security-Policy"] and response["X-Content-Type-Options"] == "nosniff"
    assert not response.cookies

    embedded_redis.ensure_running(own_redis)
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"

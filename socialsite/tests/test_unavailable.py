"""When Redis is unreachable, pages answer 503 with a readable message instead of a traceback."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from socialsite import redis_client
from socialsite.testing import free_port


@pytest.fixture
def redis_gone(settings, tmp_path):
    settings.REDIS_URL = f"unix://{tmp_path}/nothing-listens-here.sock"
    if settings.REDIS_CLUSTER_URL:
        settings.REDIS_CLUSTER_URL = f"redis://127.0.0.1:{free_port()}/0"  # a cluster node nobody runs
    redis_client.reset()
    yield
    redis_client.reset()


@pytest.mark.django_db
def test_pages_answer_503_with_a_readable_message_when_redis_is_down(redis_gone):
    client = Client()
    client.force_login(User.objects.create_user(username="vic", password="x-long-password"))
    for path in ("/", "/@someone"):
        response = client.get(path)
        assert response.status_code == 503
        body = response.content.decode()
        assert "temporarily unavailable" in body and "Traceback" not in body
        assert response["Retry-After"]


@pytest.mark.django_db
def test_json_clients_get_a_json_503(redis_gone):
    response = Client().get("/@someone", HTTP_ACCEPT="application/json")
    assert response.status_code == 503
    assert response.json()["error"] == "service_unavailable"


@pytest.mark.django_db
def test_healthz_answers_503_naming_each_redis_down_with_the_security_headers(redis_gone, settings):
    """The probe says the site cannot work, and what is down (both servers, on a cluster); it sets no cookie."""
    response = Client().get("/healthz")
    assert response.status_code == 503
    down = response.json()["down"]
    assert set(down) == ({"redis", "redis_cluster"} if settings.REDIS_CLUSTER_URL else {"redis"})
    assert response["Content-Security-Policy"] and response["X-Content-Type-Options"] == "nosniff"
    assert not response.cookies

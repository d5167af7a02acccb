"""The client API's streams take a place of their client's address like every stream and live page of the site
(``streaming.places``): past ``STREAMING_MAX_CONNECTIONS_PER_ADDRESS`` open at once, the next one is 429, and a
stream that ends gives its place back."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from socialsite import testing

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def site(django_db_setup: None) -> Iterator[str]:
    env = {
        **os.environ,
        "DATABASE_URL": testing.database_url(),
        "DJANGO_LOG_LEVEL": "WARNING",
        "STREAMING_MAX_CONNECTIONS_PER_ADDRESS": "2",
    }
    log_path = Path(settings.VAR_DIR) / "api-places-server.log"
    with testing.daphne(env, probe="/api/v1/instance", log_path=log_path, start_timeout=60) as (url, _process):
        yield url


def open_stream(url: str):  # type: ignore[no-untyped-def]
    response = urllib.request.urlopen(url + "/api/v1/streaming/public", timeout=testing.WAIT_SECONDS)
    assert response.readline() == b":)\n"  # the stream is open and holds its place
    return response


def test_a_third_stream_from_one_address_is_refused_until_one_ends(site):
    first, second = open_stream(site), open_stream(site)
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(site + "/api/v1/streaming/hashtag?tag=redis", timeout=testing.WAIT_SECONDS)
        assert refused.value.code == 429
        assert "Too many" in json.load(refused.value)["error"]
        first.close()

        def reopened() -> bool:
            try:
                open_stream(site).close()
            except urllib.error.HTTPError:
                return False
            return True

        assert testing.wait_until(reopened), "the closed stream's place never came back"
    finally:
        first.close()
        second.close()

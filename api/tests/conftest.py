"""The live server the client-library tests share: one daphne for the whole session (Mastodon.py's modules)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from socialsite import testing


@pytest.fixture(scope="session")
def site(django_db_setup: None) -> Iterator[str]:
    """daphne serving the site on the test database (the accounts and OAuth rows the tests write)."""
    env = {
        **os.environ,
        "DATABASE_URL": testing.database_url(),
        "DJANGO_LOG_LEVEL": "WARNING",
        # hub.json tells the streaming tests when their streams are subscribed.
        "STREAMING_HUB_ENDPOINT": "1",
        # Mastodon.py's close() waits for the stream's next bytes: a keep-alive every second.
        "STREAMING_KEEPALIVE_SECONDS": "1",
        # Schemathesis sends a few hundred calls with one token in a minute (test_schemathesis.py).
        "RATE_LIMIT_API_PER_TOKEN": "5000/5m",
    }
    log_path = Path(settings.VAR_DIR) / "api-server.log"
    with testing.daphne(env, probe="/api/v1/instance", log_path=log_path, start_timeout=60) as (url, _process):
        yield url

"""masto.js, the JavaScript client (npm ``masto``, pinned in ``masto_js/package-lock.json``), drives the API on a
real daphne: a token from the OAuth flow logs it in, it reads the instance and the home timeline, posts,
favourites, gets a 404 for a post that does not exist, and streams home over the WebSocket. ``npm ci`` installs it
on the first run."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from api.tests.helpers import person, token_for
from socialsite import testing

pytestmark = pytest.mark.django_db(transaction=True)

PROJECT = Path(__file__).parent / "masto_js"


def masto_js() -> Path:
    """The check script with masto.js installed beside it (``npm ci``, once, from the lock file)."""
    # bin/test runs two suites side by side: one installs while the other waits for it.
    with (PROJECT / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (PROJECT / "node_modules" / "masto" / "package.json").is_file():
            npm = shutil.which("npm")
            assert npm, "npm is needed for the masto.js test (bin/test installs Debian's nodejs and npm)"
            subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund"], cwd=PROJECT, check=True, capture_output=True, timeout=300
            )
    return PROJECT / "check.js"


@pytest.fixture(scope="module")
def site(django_db_setup: None) -> Iterator[str]:
    env = {
        **os.environ,
        "DATABASE_URL": testing.database_url(),
        "DJANGO_LOG_LEVEL": "WARNING",
        # The script waits on the hub's counters before it posts what the stream must bring.
        "STREAMING_HUB_ENDPOINT": "1",
    }
    log_path = Path(settings.VAR_DIR) / "api-masto-js-server.log"
    with testing.daphne(env, probe="/api/v1/instance", log_path=log_path, start_timeout=60) as (url, _process):
        yield url


def test_masto_js_logs_in_reads_home_and_posts(site):
    script = masto_js()
    person("ada")
    token = token_for("ada")
    node = shutil.which("node")
    assert node, "node is needed for the masto.js test"
    run = subprocess.run(
        [node, str(script), site, token], capture_output=True, text=True, timeout=testing.WAIT_SECONDS * 2
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["username"] == "ada"
    assert result["version"].startswith("4.3.0")
    assert result["tags"] == ["js"]
    assert result["home"] == [result["posted"]]
    assert result["favourited"] is True
    assert result["missing"] == 404
    assert result["streamed"] == result["live"]

"""Schemathesis (PyPI ``schemathesis``, pinned in requirements-dev.txt) fuzzes the client API on the shared live
daphne (``conftest.site``) from the OpenAPI description it serves (``/api/openapi.json``): a few generated
requests per operation, valid and invalid, with a real person's token and then with none, and every answer must
be below 500 and match the documented schema (the entity for a 200, Mastodon's ``Error`` for the rest). Bounded
by ``EXAMPLES`` per operation, with a fixed seed so a failure replays."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from api.tests.helpers import person, token_for
from timelines import services

pytestmark = pytest.mark.django_db(transaction=True)

# SCHEMATHESIS_EXAMPLES=<n> and SCHEMATHESIS_PHASES=examples,coverage,fuzzing make a longer run (the defaults keep
# it to about 20 s here); SCHEMATHESIS_SEED=<n> replays another run.
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "5"))
PHASES = os.environ.get("SCHEMATHESIS_PHASES", "examples,fuzzing")
SEED = int(os.environ.get("SCHEMATHESIS_SEED", "20"))


@pytest.mark.parametrize("caller", ["person", "anonymous"])
def test_schemathesis_finds_no_server_error_and_every_answer_matches_the_schema(site, tmp_path, caller):
    ada, bob = person("ada"), person("bob")
    services.follow_user(uid=bob.uid, other_uid=ada.uid)
    post = services.post_status(uid=ada.uid, message="something to find #redis")
    services.send_message(uid=bob.uid, message="a word", to=(ada.uid,))
    services.create_user_list(uid=ada.uid, name="friends")
    services.bookmark_status(uid=ada.uid, status_id=post)
    token = token_for("ada", scope="read write follow")
    # Anonymous callers reach the public reads and every refusal: fewer examples, the same checks.
    auth = ["--header", f"Authorization: Bearer {token}"] if caller == "person" else []
    examples = EXAMPLES if caller == "person" else max(1, EXAMPLES // 2)
    started = time.monotonic()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "schemathesis.cli",
            "run",
            f"{site}/api/openapi.json",
            "--url",
            site,
            *auth,
            "--checks",
            "not_a_server_error,response_schema_conformance",
            "--phases",
            PHASES,
            "--max-examples",
            str(examples),
            "--seed",
            str(SEED),
            "--workers",
            "2",
            "--request-timeout",
            "10",
            "--generation-database",
            "none",
            "--no-shrink",
            "--no-color",
            "--report-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-6000:]
    assert "operations" in output.lower() or "passed" in output.lower(), output[-2000:]
    print(f"Schemathesis: {time.monotonic() - started:.1f} s\n{output[-1500:]}")

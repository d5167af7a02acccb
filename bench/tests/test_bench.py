"""The benchmark harness runs end to end (``python -m bench --smoke``: every scenario at a tenth of --quick's
sizes). Benchmarks are not tests: nothing here asserts a timing, only that every scenario ran and reported its
rows against raw Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

pytestmark = pytest.mark.slow


def test_quick_benchmark_prints_a_table_and_writes_json(tmp_path):
    # The benchmark runs on its own Redis and SQLite, never on the test session's.
    own = {"REDIS_URL", "SOCIALSITE_VAR_DIR", "DATABASE_URL"}
    env = {key: value for key, value in os.environ.items() if key not in own}
    output = tmp_path / "bench.json"
    on_cluster = bool(os.environ.get("REDIS_CLUSTER_URL"))
    # On the cluster, the scenarios whose Redis work differs there; the HTTP and API scenarios load a server
    # whose pages the single-Redis run and the live-server tests of the cluster run already cover.
    only = [
        "--only",
        "home_read",
        "post_fanout",
        "mixed",
        "follow",
        "memory",
        "streaming",
        "exercises",
        "idle",
        "pulled",
    ]
    result = subprocess.run(
        [sys.executable, "-m", "bench", "--smoke", "--json", str(output), *(only if on_cluster else [])],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,  # a busy 2-core machine (two suites side by side) can take minutes; normally ~1
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "scenario" in result.stdout and "raw Redis" in result.stdout
    report = json.loads(output.read_text())
    scenarios = {row["scenario"] for row in report["rows"]}
    assert scenarios >= {"1 home read", "2 post", "3 mixed", "4 follow", "5 memory"}
    assert on_cluster or scenarios >= {"6 http", "9 api"}
    compared = [row for row in report["rows"] if row["raw"] is not None]
    assert compared and all(row["product"] is not None and row["ratio"] is not None for row in compared)
    assert report["machine"]["redis"]
    if not on_cluster:
        # The book's own code ran beside socialsite wherever it does the same operation.
        with_book = {row["scenario"] for row in report["rows"] if row["book"] is not None}
        assert with_book >= {"1 home read", "3 mixed"}
        assert all(row["book_ratio"] is not None for row in report["rows"] if row["book"] is not None)


def test_the_book_column_runs_the_books_code_as_printed():
    """bench/book_ch8.py is the shared port of the book's listings, byte for byte (CI clones only this
    repository, so it is vendored); the shared copy is compared when this machine has it."""
    vendored = settings.BASE_DIR / "bench" / "book_ch8.py"
    shared = settings.BASE_DIR.parent / "shared" / "bench" / "book_ch8.py"
    assert "def get_status_messages(conn, uid, timeline='home:', page=1, count=30):" in vendored.read_text()
    if shared.exists():
        assert vendored.read_bytes() == shared.read_bytes()

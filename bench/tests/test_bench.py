"""The benchmark harness runs end to end (``python -m bench --quick``). Benchmarks are not tests: nothing
here asserts a timing, only that every scenario ran and reported its rows against raw Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

pytestmark = pytest.mark.slow


def test_quick_benchmark_prints_a_table_and_writes_json(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in {"REDIS_URL", "SOCIALSITE_VAR_DIR"}}
    output = tmp_path / "bench.json"
    result = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--json", str(output)],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "scenario" in result.stdout and "raw Redis" in result.stdout
    report = json.loads(output.read_text())
    scenarios = {row["scenario"] for row in report["rows"]}
    assert scenarios >= {"1 home read", "2 post", "3 mixed", "4 follow", "5 memory", "6 http"}
    compared = [row for row in report["rows"] if row["raw"] is not None]
    assert compared and all(row["product"] is not None and row["ratio"] is not None for row in compared)
    assert report["machine"]["redis"]

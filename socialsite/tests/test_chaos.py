"""Chaos under load (issue 23), the short run of ``python -m bench --only chaos``: while people post, reply, like,
follow and read through HTTP and streaming clients hold the sample stream open, the web process, the RQ worker
and the embedded Redis of a ``manage.py serve`` are each killed with SIGKILL. ``serve`` brings every one back,
nothing the site acknowledged is lost (``appendfsync always``), the streaming clients reconnect and get a post
made after the recovery, the jobs finish, and ``audit_timelines`` finds nothing to fix."""

from __future__ import annotations

import os

import pytest

from bench.chaos import report, site
from bench.chaos.run import chaos

pytestmark = pytest.mark.slow


def test_serve_brings_back_a_killed_web_process_worker_and_redis_and_no_acknowledged_write_is_lost(tmp_path):
    result = chaos(
        tmp_path / "site",
        appendfsync="always",
        users=8,
        threads=3,
        stream_clients=4,
        warm_seconds=1.0,
        gap_seconds=1.0,
        static_from=dict(os.environ),
        log=print,  # what happened when, in the captured output of a failure
    )
    table = report.render([result])
    print(table)

    assert sum(result.acknowledged.values()) >= 20 and result.acknowledged["post"], table
    assert result.lost.count() == 0, f"{result.lost.writes[:10]}\n{table}"
    # Every process killed came back, restarted by serve, which said so.
    assert [kill.kind for kill in result.kills] == [site.WEB, site.WORKER, site.REDIS]
    assert all(kill.replaced_seconds is not None and kill.recovered_seconds is not None for kill in result.kills), table
    for name in ("web process", "RQ worker", "embedded Redis"):
        assert any(line.startswith(f"Restarted the {name}") for line in result.restarts_logged), result.restarts_logged
    # The one web process held every stream: each client lost it, came back and received the last post.
    assert result.reconnects >= result.streams and result.final_probe_received == result.streams, table
    # A failure is a refused or dropped connection or a 503 while Redis restarts, never a server error.
    assert not [kind for kind in result.errors if kind.startswith("HTTP 5") and "503" not in kind], table
    assert result.queue_drained and result.failed_jobs == 0, table
    assert result.audit_clean, result.audit

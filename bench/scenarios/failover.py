"""Scenario 13: a Redis Cluster primary killed with ``kill -9`` (issue 23), on a cluster of its own with a replica per
primary (``bench.failover_drill``; whatever Redis the other scenarios use).

- ``post_status`` p50/p99 with ``POST_WAIT_REPLICAS`` 0 (acknowledge at once, the default) and 1 (Redis ``WAIT``
  for one replica of the status's and of the author's primary), in alternating turns on the same cluster.
- The failover window: from the SIGKILL of the author's primary to the end of the last failed call of a load of
  posts, follows and home reads through the services (cluster-node-timeout 1 s).
- Acknowledged posts lost, both ways, when the primary dies while its replica lags (stopped, its link cut: what
  the primary acknowledges then never reaches it): with WAIT the posts are refused instead (503) and none
  acknowledged is lost; without, every post acknowledged during the lag is gone. And after a plain kill (a replica
  keeping up, as on localhost).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from django.conf import settings

from bench.failover_drill import Drill, Load, drill, wait_until
from bench.harness import Context, Row, latencies_in_turns, summary
from timelines import services

SCENARIO = "13 failover"
MESSAGE = "f" * 140
CALLS_AFTER = 30
LIMIT_SECONDS = 30.0


def _latency_rows(directory: Path, repeats: int) -> list[Row]:
    with drill(directory, wait_replicas=0) as run:

        def post(replicas: int):  # type: ignore[no-untyped-def]
            def operation() -> None:
                settings.POST_WAIT_REPLICAS = replicas
                services.post_status(uid=run.author, message=MESSAGE)

            return operation

        samples = latencies_in_turns({"no WAIT": post(0), "WAIT 1": post(1)}, repeats)
    rows = []
    for name, latencies in samples.items():
        p50, p99 = summary(latencies)
        rows.append(Row(SCENARIO, f"post_status p50, {name}", p50, unit="ms", higher_is_better=False))
        rows.append(Row(SCENARIO, f"post_status p99, {name}", p99, unit="ms", higher_is_better=False))
    return rows


def _run_kill(run: Drill, *, lagging: bool) -> Load:
    load = run.load()
    load.start()
    try:
        assert wait_until(lambda: len(load.acknowledged()) >= 10, LIMIT_SECONDS), "no load"
        if lagging:
            run.kill_with_lagging_replica(load)
        else:
            run.kill()
        assert wait_until(run.promoted, LIMIT_SECONDS, 0.05), "the replica was not promoted"
        run.cluster.restart(run.victim)  # as a supervisor would: back as the new primary's replica
        promoted = time.monotonic()
        assert wait_until(lambda: load.succeeded_since(promoted) >= CALLS_AFTER, LIMIT_SECONDS), "no recovery"
    finally:
        load.stop()
    return load


def run(ctx: Context) -> list[Row]:
    repeats = ctx.scale(200, 1000)
    base = Path(tempfile.mkdtemp(prefix="socialsite-failover-"))
    try:
        return _measure(ctx, base, repeats)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _measure(ctx: Context, base: Path, repeats: int) -> list[Row]:
    rows = _latency_rows(base / "latency", repeats)
    # --smoke (the bench test, near its time limit) only times posts both ways: the kill drills are what
    # timelines/tests/test_failover.py runs.
    drills = [] if ctx.smoke else [(0, False), (0, True), (1, False), (1, True)]
    for replicas, lagging in drills:
        name = "WAIT 1" if replicas else "no WAIT"
        how = "replica lagging" if lagging else "plain kill"
        with drill(base / f"{replicas}-{lagging}", wait_replicas=replicas, wait_timeout_ms=300) as run_:
            load = _run_kill(run_, lagging=lagging)
            lost = run_.lost(load)
            acknowledged = len(load.acknowledged())
            refused = sum(1 for call in load.calls if call.op == "post" and call.error == "NotReplicated")
            errors: dict[str, int] = {}
            for call in load.calls:
                if call.error:
                    errors[call.error] = errors.get(call.error, 0) + 1
            if not lagging:
                rows.append(
                    Row(
                        SCENARIO,
                        f"failover window, {name}",
                        run_.window(load),
                        unit="s",
                        higher_is_better=False,
                        note=f"errors: {errors}",
                    )
                )
            rows.append(
                Row(
                    SCENARIO,
                    f"acked posts lost, {name}, {how}",
                    float(len(lost)),
                    unit="posts",
                    higher_is_better=False,
                    bar="0" if replicas else "",
                    passed=(not lost) if replicas else None,
                    note=f"of {acknowledged} acknowledged; {refused} refused (NotReplicated)",
                )
            )
    return rows

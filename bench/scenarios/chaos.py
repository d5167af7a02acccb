"""Scenario 14: chaos under load (issue 23). ``manage.py serve`` runs in a var directory of its own (its own
embedded Redis, SQLite and static files) with ``WEB_PROCESSES`` web processes and ``WORKERS`` RQ workers; threads
post, reply, like, follow, unfollow and read pages and timelines through HTTP, streaming clients hold the sample
stream open, and meanwhile a web process, an RQ worker and Redis are each killed with SIGKILL, in turn, and
restarted by ``serve``. Run twice, with the embedded Redis's ``appendfsync always`` and ``everysec``
(``SOCIALSITE_REDIS_APPENDFSYNC``). Prints its own table (``bench.chaos.report``): requests answered, failures by
kind, acknowledged writes lost, stream clients reconnected, each kill's time to recovery, the jobs, and
``audit_timelines`` afterwards. Only with ``--only chaos``: it takes minutes and kills processes.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from bench.chaos import report
from bench.chaos.run import Result, chaos
from bench.harness import Context, Row

# Goals (issue 23): nothing acknowledged lost with appendfsync always; at most a second's worth with everysec.
EVERYSEC_LOSS_BAR_SECONDS = 1.0


def _sizes(ctx: Context) -> dict[str, object]:
    if ctx.quick:
        return {"users": 12, "fans": 0, "threads": 4, "stream_clients": 5, "web_processes": 1, "workers": 1}
    # 1,200 bulk followers of the first account: each of its posts is delivered past the first pass by a job.
    return {
        "users": 30,
        "fans": 1_200,
        "threads": 8,
        "stream_clients": 20,
        "web_processes": 2,
        "workers": 2,
        "warm_seconds": 5.0,
        "gap_seconds": 5.0,
    }


def _rows(result: Result) -> list[Row]:
    label = f"appendfsync {result.appendfsync}"
    lost = result.lost.count()
    if result.appendfsync == "always":
        bar, passed = "0", lost == 0
    else:
        window = result.lost_before_redis_kill_seconds or 0.0
        bar, passed = f"<= {EVERYSEC_LOSS_BAR_SECONDS:.0f} s of writes", window <= EVERYSEC_LOSS_BAR_SECONDS
    failed = sum(result.errors.values())
    kinds = ", ".join(f"{count} {kind}" for kind, count in result.errors.most_common())
    return [
        Row("14 chaos", f"{label}: requests", result.requests, unit="requests", note=f"{failed} failed: {kinds}"),
        Row("14 chaos", f"{label}: acknowledged writes lost", lost, unit="writes", bar=bar, passed=passed),
        Row(
            "14 chaos",
            f"{label}: stream clients back with a post after recovery",
            result.final_probe_received,
            unit="clients",
            bar=f"= {result.streams}",
            passed=result.final_probe_received == result.streams,
            note=f"{result.reconnects} reconnects",
        ),
        Row(
            "14 chaos",
            f"{label}: time to full recovery (slowest kill)",
            result.full_recovery_seconds,
            unit="s",
            higher_is_better=False,
            note=", ".join(f"{kill.kind} {kill.recovered_seconds or float('nan'):.1f} s" for kill in result.kills),
        ),
        Row(
            "14 chaos",
            f"{label}: audit_timelines afterwards",
            0 if result.audit_clean else 1,
            unit="problems",
            bar="0",
            passed=result.audit_clean and result.queue_drained and not result.deliveries_missing,
            note=f"jobs drained: {result.queue_drained}; deliveries missing: {result.deliveries_missing}",
        ),
    ]


def run(ctx: Context) -> list[Row]:
    results = []
    for appendfsync in ("always", "everysec"):
        var_dir = Path(tempfile.mkdtemp(prefix=f"socialsite-chaos-{appendfsync}-"))
        try:
            results.append(
                chaos(
                    var_dir,
                    appendfsync=appendfsync,
                    log=lambda message: print(f"  {message}", file=sys.stderr, flush=True),
                    **_sizes(ctx),  # type: ignore[arg-type]
                )
            )
        finally:
            shutil.rmtree(var_dir, ignore_errors=True)
    print(report.render(results), flush=True)
    print(flush=True)
    return [row for result in results for row in _rows(result)]

"""The chaos run's printed table: one column per run (``appendfsync always``, ``everysec``), one row per figure."""

from __future__ import annotations

from bench.chaos.run import KILLS, Result

PLURALS = {"reply": "replies"}


def _seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.1f} s"


def rows(result: Result) -> list[tuple[str, str]]:
    answered = result.requests - sum(count for kind, count in result.errors.items() if not kind.startswith("HTTP"))
    lines = [
        ("load (s), requests sent", f"{result.seconds:.0f} s, {result.requests:,}"),
        ("requests answered / succeeded", f"{answered:,} / {result.succeeded:,}"),
    ]
    for kind, count in sorted(result.errors.items(), key=lambda item: -item[1]):
        lines.append((f"  failed: {kind}", f"{count:,}"))
    acknowledged = ", ".join(
        f"{count:,} {PLURALS.get(kind, kind + 's')}" for kind, count in sorted(result.acknowledged.items())
    )
    lines.append(("acknowledged writes", acknowledged))
    lost = result.lost.count()
    window = result.lost_before_redis_kill_seconds
    lines.append(
        (
            "acknowledged writes lost",
            f"{lost}" + (f" (acknowledged up to {window:.2f} s before Redis's kill)" if window is not None else ""),
        )
    )
    lines.append(
        (
            "stream clients: reconnected / got the post after recovery",
            f"{result.reconnects} reconnects of {result.streams}; {result.final_probe_received} of {result.streams}",
        )
    )
    for kind, count in sorted(result.stream_errors.items(), key=lambda item: -item[1]):
        lines.append((f"  streams: {kind}", f"{count:,}"))
    kills = {kill.kind: kill for kill in result.kills}
    for kind in KILLS:
        kill = kills.get(kind)
        if kill is None:
            continue
        lines.append(
            (
                f"kill -9 {kind}: back / recovered / failed requests",
                f"{_seconds(kill.replaced_seconds)} / {_seconds(kill.recovered_seconds)} / {kill.errors}",
            )
        )
    lines.append(("time to full recovery (slowest kill)", _seconds(result.full_recovery_seconds)))
    lines.append(
        ("jobs: queue drained, failed registry", f"{'yes' if result.queue_drained else 'NO'}, {result.failed_jobs}")
    )
    if result.fans:
        lines.append(("deliveries by jobs missing (bulk followers)", f"{result.deliveries_missing} ({result.fans})"))
    lines.append(("audit_timelines afterwards", "nothing to fix" if result.audit_clean else "PROBLEMS"))
    lines.append(("restarts logged by serve", str(sum("Restarted the" in line for line in result.restarts_logged))))
    return lines


def render(results: list[Result]) -> str:
    columns = [rows(result) for result in results]
    labels = [label for label, _ in columns[0]]
    for column in columns[1:]:
        labels += [label for label, _ in column if label not in labels]
    header = ["chaos run", *(f"appendfsync {result.appendfsync}" for result in results)]
    table = [header] + [[label, *(dict(column).get(label, "") for column in columns)] for label in labels]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    out = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)) for line in table]
    out.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(out)

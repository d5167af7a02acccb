"""``python -m bench [--quick]``: measure socialsite against raw Redis, side by side, and print a table.

Runs on its own Redis (an embedded server in a temporary directory, flushed between scenarios) and its own
SQLite database, so it never touches the site's data. ``--use-redis-url`` runs on the server named by
``REDIS_URL`` instead, which it flushes. Results also go to ``bench/results/latest.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SCENARIOS = (
    "home_read",
    "post_fanout",
    "mixed",
    "follow",
    "memory",
    "http",
    "streaming",
    "exercises",
    "api",
    "idle",
    "pulled",
    "capacity",
    "media",
    "floor",
    "failover",
)
# Run only when named (``--only chaos``): they take minutes and kill processes.
OPT_IN = ("chaos",)
RESULTS = Path(__file__).resolve().parent / "results" / "latest.json"


def _format(value: float | None) -> str:
    if value is None:
        return ""
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def render(rows, markdown: bool = False) -> str:
    header = ["scenario", "metric", "socialsite", "raw Redis", "book", "unit", "vs raw", "vs book", "bar", "result"]
    lines = []
    for row in rows:
        ratio, book_ratio = row.ratio, row.book_ratio
        verdict = "" if row.passed is None else ("met" if row.passed else "MISSED")
        metric = row.metric + (f" ({row.note})" if row.note else "")
        lines.append(
            [
                row.scenario,
                metric,
                _format(row.product),
                _format(row.raw),
                _format(row.book),
                row.unit,
                "" if ratio is None else f"{ratio:.2f}",
                "" if book_ratio is None else f"{book_ratio:.2f}",
                row.bar,
                verdict,
            ]
        )
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(cell.replace("|", "/") for cell in line) + " |" for line in lines]
        return "\n".join(out)
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *lines, strict=True)]
    render_line = lambda cells: "  ".join(str(cell).ljust(width) for cell, width in zip(cells, widths, strict=True))  # noqa: E731
    return "\n".join(
        [render_line(header), render_line(["-" * width for width in widths])] + [render_line(line) for line in lines]
    )


def machine() -> dict[str, object]:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            model = next(line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name"))
    except (OSError, StopIteration):
        model = platform.processor()
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, finishes in under a minute")
    parser.add_argument(
        "--smoke", action="store_true", help="tiny sizes: proves every scenario runs, measures nothing (the tests)"
    )
    parser.add_argument("--only", nargs="+", choices=SCENARIOS + OPT_IN, help="run only these (chaos: only so)")
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"where to write results (default {RESULTS})")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (for the README)")
    parser.add_argument("--use-redis-url", action="store_true", help="run on REDIS_URL's server and FLUSH it")
    args = parser.parse_args(argv)

    var_dir = Path(tempfile.mkdtemp(prefix="socialsite-bench-"))
    os.environ["SOCIALSITE_VAR_DIR"] = str(var_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from socialsite import embedded_redis

    embedded = None
    if os.environ.get("REDIS_URL") and not args.use_redis_url:
        parser.error("REDIS_URL is set and the benchmark flushes its Redis: unset it, or pass --use-redis-url.")
    if not os.environ.get("REDIS_URL"):
        embedded = var_dir / "redis"
        os.environ["REDIS_URL"] = embedded_redis.ensure_running(embedded)
    try:
        return _run(args, var_dir)
    finally:
        if embedded is not None:
            embedded_redis.stop(embedded)
        shutil.rmtree(var_dir, ignore_errors=True)


def _wait_freed(client: Any, seconds: float = 120.0) -> None:
    """Wait until the server has freed what ``FLUSHALL ASYNC`` let go (``lazyfree_pending_objects`` 0), so a
    scenario that reads ``used_memory`` before and after its work does not count the previous one's keys going
    away (the capacity scenario once reported a negative size per person)."""
    deadline = time.monotonic() + seconds
    while int(client.info("memory").get("lazyfree_pending_objects", 0)) and time.monotonic() < deadline:
        time.sleep(0.05)


def _run(args: argparse.Namespace, var_dir: Path) -> int:
    import django

    django.setup()
    from django.core.management import call_command

    from bench.harness import Context, RoundTrips
    from bench.scenarios import (
        api,
        capacity,
        chaos,
        exercises,
        failover,
        floor,
        follow,
        home_read,
        http,
        idle,
        media,
        memory,
        mixed,
        post_fanout,
        pulled,
        streaming,
    )

    call_command("migrate", verbosity=0)
    ctx = Context(quick=args.quick or args.smoke, smoke=args.smoke)
    trips = RoundTrips()
    trips.install()
    client = ctx.redis
    server = client.info("server")
    ctx.info.update(machine(), redis=server["redis_version"], quick=args.quick, smoke=args.smoke)
    modules = {
        "home_read": home_read,
        "post_fanout": post_fanout,
        "mixed": mixed,
        "follow": follow,
        "memory": memory,
        "http": http,
        "streaming": streaming,
        "exercises": exercises,
        "api": api,
        "idle": idle,
        "pulled": pulled,
        "capacity": capacity,
        "media": media,
        "floor": floor,
        "failover": failover,
        "chaos": chaos,
    }
    rows = []
    started = time.perf_counter()
    for name in args.only or SCENARIOS:
        # ASYNC: freeing the previous scenario's keys (hundreds of thousands, the book's among them) in the
        # foreground outran the client's 5 s timeout on a busy machine.
        client.flushall(asynchronous=True)
        _wait_freed(client)
        began = time.perf_counter()
        print(f"running {name} ...", file=sys.stderr, flush=True)
        module = modules[name]
        found = module.run(ctx, trips) if name in ("home_read", "media") else module.run(ctx)
        rows.extend(found)
        print(f"  {name}: {time.perf_counter() - began:.1f}s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    print(render(rows, markdown=args.markdown))
    info = ctx.info
    print(
        f"\n{info['cpu']}, {info['cores']} cores, Python {info['python']}, Redis {info['redis']}"
        f"{' (--smoke)' if args.smoke else ' (--quick)' if args.quick else ''}; {elapsed:.0f} s"
    )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {
                "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                "machine": info,
                "seconds": round(elapsed, 1),
                "rows": [row.as_dict() for row in rows],
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

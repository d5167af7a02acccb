"""Scenario "floor": socialsite's Python API against the book's own listings, operation by operation, on one Redis:
5,000 users (2,000 with --quick) on the mixed scenario's power-law graph, 90% home reads, 8% posts, 2% follows
or unfollows, the two taking turns in short rounds.

Besides wall-clock latency it reports CPU per operation: this process's CPU time plus the Redis server's
(``used_cpu_user`` + ``used_cpu_sys``, every primary's on a cluster), measured around each batch of one kind of
operation. On a machine shared with other work, wall time mostly measures the queue for a core; the CPU an
operation costs does not depend on who else runs, so its ratio against the book's is the steadier figure. Bars:
each ratio (book / socialsite, so higher is better) at least 1.0, the floor issue 23 sets; twice is the goal
beyond it. No book on a cluster (it needs one database of its own), so there the scenario reports socialsite's
figures alone.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from redis.cluster import RedisCluster

from bench import book
from bench.graph import bulk_follow, bulk_users, power_law_edges
from bench.harness import Context, Row
from bench.scenarios.mixed import FOLLOW, MESSAGE, POST, READ, _plan, _product_toggle_follow
from socialsite import redis_client
from timelines import selectors, services

ROUNDS = 10
KINDS = (READ, POST, FOLLOW)

Operation = Callable[[int, int], object]


def _server_cpu(client: Any) -> float:
    """CPU seconds used so far by the server of ``client``, or by every primary of the social data's cluster."""
    servers = redis_client.primaries() if isinstance(client, RedisCluster) else [client]
    total = 0.0
    for server in servers:
        info = server.info("cpu")
        total += float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
    return total


def _batch(
    client: Any, ops: list[tuple[int, int]], operation: Operation, uids: list[int]
) -> tuple[list[float], float, float]:
    """Run one kind's operations; their wall latencies (ms), and the client's and server's CPU seconds."""
    latencies = []
    server_before = _server_cpu(client)
    cpu_before = time.process_time()
    for index, other in ops:
        began = time.perf_counter()
        operation(uids[index], uids[other])
        latencies.append((time.perf_counter() - began) * 1000)
    cpu = time.process_time() - cpu_before
    return latencies, cpu, _server_cpu(client) - server_before


def run(ctx: Context) -> list[Row]:
    users = ctx.scale(2_000, 5_000)
    client = ctx.redis
    rng = random.Random(ctx.seed)
    history = [rng.randrange(1, users) for _ in range(ctx.scale(300, 2_000))]
    edges = power_law_edges(ctx, list(range(users)), mean_following=ctx.scale(15, 30))
    uids = bulk_users(ctx, users, prefix="f")
    bulk_follow(ctx, [(uids[a], uids[b]) for a, b in edges])
    for index in history:
        services.post_status(uid=uids[index], message=MESSAGE)
    contenders: dict[str, tuple[Any, list[int], dict[str, Operation]]] = {
        "product": (
            client,
            uids,
            {
                READ: lambda uid, _: selectors.get_status_messages(uid=uid, count=30),
                POST: lambda uid, _: services.post_status(uid=uid, message=MESSAGE),
                FOLLOW: _product_toggle_follow,
            },
        )
    }
    if book.available():
        conn = book.connect(ctx)
        book_uids = book.bulk_users(conn, users, prefix="f")
        book.bulk_follow(conn, [(book_uids[a], book_uids[b]) for a, b in edges])
        for index in history:
            book.post(conn, book_uids[index], MESSAGE)
        contenders["book"] = (
            conn,
            book_uids,
            {
                READ: lambda uid, _: book.read_home(conn, uid),
                POST: lambda uid, _: book.post(conn, uid, MESSAGE),
                FOLLOW: lambda uid, other: book.toggle_follow(conn, uid, other),
            },
        )
    plan = _plan(ctx, users, ctx.scale(3_000, 20_000))
    latencies: dict[str, dict[str, list[float]]] = {name: defaultdict(list) for name in contenders}
    cpu: dict[str, dict[str, float]] = {name: defaultdict(float) for name in contenders}
    wall: dict[str, float] = dict.fromkeys(contenders, 0.0)
    per_round = -(-len(plan) // ROUNDS)
    for start in range(0, len(plan), per_round):
        chunk = plan[start : start + per_round]
        for name, (_, contender_uids, operations) in contenders.items():
            for kind in KINDS:
                ops = [(index, other) for found, index, other in chunk if found == kind]
                found_latencies, client_cpu, server_cpu = _batch(client, ops, operations[kind], contender_uids)
                latencies[name][kind].extend(found_latencies)
                cpu[name][kind] += client_cpu + server_cpu
                wall[name] += sum(found_latencies) / 1000
    counts = {kind: sum(1 for found, _, _ in plan if found == kind) for kind in KINDS}
    rows = [_row("ops/s, 90/8/2", len(plan) / wall["product"], _get(wall, "book", len(plan)), "ops/s", True)]
    total_cpu = {name: sum(cpu[name].values()) for name in contenders}
    rows.append(
        _row("CPU per op, 90/8/2", total_cpu["product"] / len(plan) * 1e6, _per_op(total_cpu, len(plan)), "us", False)
    )
    for kind in KINDS:
        product_p50 = statistics.median(latencies["product"][kind])
        book_p50 = statistics.median(latencies["book"][kind]) if "book" in contenders else None
        rows.append(_row(f"{kind} p50", product_p50, book_p50, "ms", False))
        product_cpu = cpu["product"][kind] / counts[kind] * 1e6
        book_cpu = cpu["book"][kind] / counts[kind] * 1e6 if "book" in contenders else None
        rows.append(_row(f"{kind} CPU per op (client + Redis)", product_cpu, book_cpu, "us", False))
    for key in client.scan_iter(match="rq:*", count=10_000):
        client.delete(key)
    if book.available():
        book.clear_queue(conn)
    return rows


def _get(wall: dict[str, float], name: str, ops: int) -> float | None:
    return ops / wall[name] if name in wall else None


def _per_op(total: dict[str, float], ops: int) -> float | None:
    return total["book"] / ops * 1e6 if "book" in total else None


def _row(metric: str, product: float, book_value: float | None, unit: str, higher_is_better: bool) -> Row:
    if book_value is None:
        return Row("floor", metric, product, unit=unit, higher_is_better=higher_is_better)
    speed = product / book_value if higher_is_better else book_value / product
    return Row(
        "floor",
        metric,
        product,
        unit=unit,
        higher_is_better=higher_is_better,
        bar=">= 1.0x book",
        passed=speed >= 1.0,
        book=book_value,
        note=f"{speed:.2f}x the book's speed",
    )

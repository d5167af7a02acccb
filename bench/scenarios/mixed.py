"""Scenario 3: mixed traffic on a power-law graph of 5,000 users (2,000 with --quick), one of whom is followed
by nearly everyone: 90% home reads, 8% posts, 2% follow/unfollow. Ops/s and p50/p99 per operation for the
product's services and selectors, for the raw commands doing the same work, and for the book's own code
(listings 8.3-8.6) on the same server.

The three run the same plan on copies of the same graph (raw on users of its own, the book on its own database),
in three alternating rounds, so a machine growing busier or quieter affects them alike. No worker runs
meanwhile: the celebrity's posts leave deferred fan-out jobs queued, as a burst would, for all three.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Callable

from bench import book
from bench import raw as raw_redis
from bench.graph import bulk_follow, bulk_users, check_counters, power_law_edges
from bench.harness import Context, Row, summary
from timelines import selectors, services

MESSAGE = "p" * 140
READ, POST, FOLLOW = "home read", "post", "follow/unfollow"
ROUNDS = 3

Operations = dict[str, Callable[[int, int], object]]


def _product_toggle_follow(uid: int, other: int) -> None:
    if selectors.is_following(uid=uid, other_uid=other):
        services.unfollow_user(uid=uid, other_uid=other)
    else:
        services.follow_user(uid=uid, other_uid=other)


def _plan(ctx: Context, users: int, count: int) -> list[tuple[str, int, int]]:
    """(operation, user index, other user index) triples."""
    rng = random.Random(ctx.seed + 3)
    weights = [1.0 / (rank + 1) for rank in range(users)]
    indexes = range(users)
    plan = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.90:
            plan.append((READ, rng.randrange(users), 0))
        elif roll < 0.98:
            plan.append((POST, rng.choices(indexes, weights=weights)[0], 0))
        else:
            uid, other = rng.sample(range(1, users), 2)
            plan.append((FOLLOW, uid, other))
    return plan


def _run(plan, uids: list[int], operations: Operations, latencies: dict[str, list[float]]) -> float:
    """Run ``plan`` on the users ``uids``; returns the seconds it took and adds to ``latencies``."""
    start = time.perf_counter()
    for kind, index, other in plan:
        began = time.perf_counter()
        operations[kind](uids[index], uids[other])
        latencies[kind].append((time.perf_counter() - began) * 1000)
    return time.perf_counter() - start


def run(ctx: Context) -> list[Row]:
    users = ctx.scale(2_000, 5_000)
    rng = random.Random(ctx.seed)
    history = [rng.randrange(1, users) for _ in range(ctx.scale(300, 2_000))]  # posts, so homes are not empty
    uids = bulk_users(ctx, users, prefix="m")
    edges = power_law_edges(ctx, list(range(users)), mean_following=ctx.scale(15, 30))
    bulk_follow(ctx, [(uids[a], uids[b]) for a, b in edges])
    check_counters(ctx, uids)
    raw_uids = bulk_users(ctx, users, prefix="r")
    bulk_follow(ctx, [(raw_uids[a], raw_uids[b]) for a, b in edges])
    client = ctx.redis
    raw_ids = iter(range(5 * 10**12, 6 * 10**12))
    for index in history:
        services.post_status(uid=uids[index], message=MESSAGE)
        raw_redis.post(client, raw_uids[index], next(raw_ids), MESSAGE)
    contenders: dict[str, tuple[list[int], Operations]] = {
        "product": (
            uids,
            {
                READ: lambda uid, _: selectors.get_status_messages(uid=uid, count=30),
                POST: lambda uid, _: services.post_status(uid=uid, message=MESSAGE),
                FOLLOW: _product_toggle_follow,
            },
        ),
        "raw": (
            raw_uids,
            {
                READ: lambda uid, _: raw_redis.read_home(client, uid),
                POST: lambda uid, _: raw_redis.post(client, uid, next(raw_ids), MESSAGE),
                FOLLOW: lambda uid, other: raw_redis.toggle_follow(client, uid, other),
            },
        ),
    }
    if book.available():
        conn = book.connect(ctx)
        book_uids = book.bulk_users(conn, users, prefix="m")
        book.bulk_follow(conn, [(book_uids[a], book_uids[b]) for a, b in edges])
        book.check_counters(conn, book_uids)
        for index in history:
            book.post(conn, book_uids[index], MESSAGE)
        contenders["book"] = (
            book_uids,
            {
                READ: lambda uid, _: book.read_home(conn, uid),
                POST: lambda uid, _: book.post(conn, uid, MESSAGE),
                FOLLOW: lambda uid, other: book.toggle_follow(conn, uid, other),
            },
        )

    plan = _plan(ctx, users, ctx.scale(1_500, 20_000))
    seconds = dict.fromkeys(contenders, 0.0)
    latencies: dict[str, dict[str, list[float]]] = {name: defaultdict(list) for name in contenders}
    per_round = -(-len(plan) // ROUNDS)
    for start in range(0, len(plan), per_round):
        chunk = plan[start : start + per_round]
        for name, (contender_uids, operations) in contenders.items():
            seconds[name] += _run(chunk, contender_uids, operations, latencies[name])
    rates = {name: len(plan) / elapsed for name, elapsed in seconds.items()}
    book_rate = rates.get("book")
    rows = [
        Row(
            "3 mixed",
            f"ops/s, {users:,} users (90/8/2)",
            rates["product"],
            rates["raw"],
            "ops/s",
            bar=">= 2.0x book" if book_rate else "",
            passed=rates["product"] >= 2.0 * book_rate if book_rate else None,
            book=book_rate,
        )
    ]
    for kind in (READ, POST, FOLLOW):
        found = {name: summary(latencies[name][kind]) for name in contenders}
        for index, label in ((0, "p50"), (1, "p99")):
            rows.append(
                Row(
                    "3 mixed",
                    f"{kind} {label}",
                    found["product"][index],
                    found["raw"][index],
                    "ms",
                    higher_is_better=False,
                    book=found["book"][index] if "book" in found else None,
                )
            )
    for key in client.scan_iter(match="rq:*", count=10_000):
        client.delete(key)
    if book.available():
        book.clear_queue(conn)
    return rows

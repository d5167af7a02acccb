"""Scenario 3: mixed traffic on a power-law graph of 10,000 users (2,000 with --quick), one of whom is
followed by nearly everyone: 90% home reads, 8% posts, 2% follow/unfollow. Ops/s and p50/p99 per operation,
for the product's services and for the raw commands doing the same work.

No worker runs meanwhile: the celebrity's posts leave deferred fan-out jobs queued, as a burst would.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict

from bench import raw as raw_redis
from bench.graph import bulk_follow, bulk_users, check_counters, power_law_edges
from bench.harness import Context, Row, summary
from timelines import selectors, services

MESSAGE = "p" * 140
READ, POST, FOLLOW = "home read", "post", "follow/unfollow"


def _product_toggle_follow(uid: int, other: int) -> None:
    if selectors.is_following(uid=uid, other_uid=other):
        services.unfollow_user(uid=uid, other_uid=other)
    else:
        services.follow_user(uid=uid, other_uid=other)


def _plan(ctx: Context, uids: list[int], count: int) -> list[tuple[str, int, int]]:
    rng = random.Random(ctx.seed + 3)
    weights = [1.0 / (rank + 1) for rank in range(len(uids))]
    plan = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.90:
            plan.append((READ, rng.choice(uids), 0))
        elif roll < 0.98:
            plan.append((POST, rng.choices(uids, weights=weights)[0], 0))
        else:
            uid, other = rng.sample(uids[1:], 2)
            plan.append((FOLLOW, uid, other))
    return plan


def _run(plan, operations) -> tuple[float, dict[str, list[float]]]:
    latencies: dict[str, list[float]] = defaultdict(list)
    start = time.perf_counter()
    for kind, uid, other in plan:
        began = time.perf_counter()
        operations[kind](uid, other)
        latencies[kind].append((time.perf_counter() - began) * 1000)
    return len(plan) / (time.perf_counter() - start), latencies


def run(ctx: Context) -> list[Row]:
    users = ctx.scale(2_000, 10_000)
    uids = bulk_users(ctx, users, prefix="m")
    bulk_follow(ctx, power_law_edges(ctx, uids, mean_following=ctx.scale(15, 30)))
    check_counters(ctx, uids)
    rng = random.Random(ctx.seed)
    for _ in range(ctx.scale(300, 2_000)):  # some history, so homes and profiles are not empty
        services.post_status(uid=rng.choice(uids[1:]), message=MESSAGE)

    plan = _plan(ctx, uids, ctx.scale(1_500, 20_000))
    client = ctx.redis
    raw_ids = iter(range(5 * 10**12, 6 * 10**12))
    product_ops = {
        READ: lambda uid, _: selectors.get_status_messages(uid=uid, count=30),
        POST: lambda uid, _: services.post_status(uid=uid, message=MESSAGE),
        FOLLOW: _product_toggle_follow,
    }
    raw_ops = {
        READ: lambda uid, _: raw_redis.read_home(client, uid),
        POST: lambda uid, _: raw_redis.post(client, uid, next(raw_ids), MESSAGE),
        FOLLOW: lambda uid, other: raw_redis.toggle_follow(client, uid, other),
    }
    product_rate, product_latency = _run(plan, product_ops)
    raw_rate, raw_latency = _run(plan, raw_ops)
    rows = [Row("3 mixed", f"ops/s, {users:,} users (90/8/2)", product_rate, raw_rate, "ops/s")]
    for kind in (READ, POST, FOLLOW):
        (p50, p99), (raw50, raw99) = summary(product_latency[kind]), summary(raw_latency[kind])
        rows.append(Row("3 mixed", f"{kind} p50", p50, raw50, "ms", higher_is_better=False))
        rows.append(Row("3 mixed", f"{kind} p99", p99, raw99, "ms", higher_is_better=False))
    for key in client.scan_iter(match="rq:*", count=10_000):
        client.delete(key)
    return rows

"""Scenario 3: mixed traffic on a power-law graph of 10,000 users (2,000 with --quick), one of whom is
followed by nearly everyone: 90% home reads, 8% posts, 2% follow/unfollow. Ops/s and p50/p99 per operation,
for the product's services and for the raw commands doing the same work.

No worker runs meanwhile: the celebrity's posts leave deferred fan-out jobs queued, as a burst would.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict

from bench.graph import bulk_follow, bulk_users, check_counters, power_law_edges
from bench.harness import Context, Row, summary
from timelines import keys, selectors, services

MESSAGE = "p" * 140
READ, POST, FOLLOW = "home read", "post", "follow/unfollow"


def _raw_read(client, uid: int) -> None:
    ids = client.zrevrange(keys.home_timeline(uid), 0, 29)
    with client.pipeline(transaction=False) as pipe:
        for status_id in ids:
            pipe.hgetall(keys.status(int(status_id)))
        pipe.execute()


def _raw_post(client, uid: int, status_id: int) -> None:
    posted = time.time()
    client.hset(keys.status(status_id), mapping={"message": MESSAGE, "posted": posted, "id": status_id, "uid": uid})
    with client.pipeline(transaction=True) as pipe:
        pipe.zadd(keys.profile_timeline(uid), {status_id: posted})
        pipe.zadd(keys.home_timeline(uid), {status_id: posted})
        pipe.zremrangebyrank(keys.home_timeline(uid), 0, -keys.HOME_TIMELINE_SIZE - 1)
        pipe.hincrby(keys.user(uid), "posts", 1)
        pipe.execute()
    batch = client.zrangebyscore(keys.followers(uid), "-inf", "+inf", start=0, num=keys.POSTS_PER_PASS)
    with client.pipeline(transaction=False) as pipe:
        for follower in batch:
            pipe.zadd(keys.home_timeline(int(follower)), {status_id: posted})
            pipe.zremrangebyrank(keys.home_timeline(int(follower)), 0, -keys.HOME_TIMELINE_SIZE - 1)
        pipe.execute()
    if len(batch) >= keys.POSTS_PER_PASS:
        client.rpush("bench:raw-jobs", status_id)
    client.publish("bench:raw-stream", MESSAGE)


def _raw_toggle_follow(client, uid: int, other: int) -> None:
    if client.zscore(keys.following(uid), other) is None:
        now = time.time()
        with client.pipeline(transaction=False) as pipe:
            pipe.zadd(keys.following(uid), {other: now})
            pipe.zadd(keys.followers(other), {uid: now})
            pipe.hincrby(keys.user(uid), "following", 1)
            pipe.hincrby(keys.user(other), "followers", 1)
            pipe.zrevrange(keys.profile_timeline(other), 0, keys.HOME_TIMELINE_SIZE - 1, withscores=True)
            recent = pipe.execute()[-1]
        with client.pipeline(transaction=True) as pipe:
            if recent:
                pipe.zadd(keys.home_timeline(uid), dict(recent))
            pipe.zremrangebyrank(keys.home_timeline(uid), 0, -keys.HOME_TIMELINE_SIZE - 1)
            pipe.execute()
    else:
        with client.pipeline(transaction=False) as pipe:
            pipe.zrem(keys.following(uid), other)
            pipe.zrem(keys.followers(other), uid)
            pipe.hincrby(keys.user(uid), "following", -1)
            pipe.hincrby(keys.user(other), "followers", -1)
            pipe.zrevrange(keys.profile_timeline(other), 0, keys.HOME_TIMELINE_SIZE - 1)
            recent = pipe.execute()[-1]
        if recent:
            client.zrem(keys.home_timeline(uid), *recent)


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
        READ: lambda uid, _: _raw_read(client, uid),
        POST: lambda uid, _: _raw_post(client, uid, next(raw_ids)),
        FOLLOW: lambda uid, other: _raw_toggle_follow(client, uid, other),
    }
    product_rate, product_latency = _run(plan, product_ops)
    raw_rate, raw_latency = _run(plan, raw_ops)
    rows = [Row("3 mixed", f"ops/s, {users:,} users (90/8/2)", product_rate, raw_rate, "ops/s")]
    for kind in (READ, POST, FOLLOW):
        (p50, p99), (raw50, raw99) = summary(product_latency[kind]), summary(raw_latency[kind])
        rows.append(Row("3 mixed", f"{kind} p50", p50, raw50, "ms", higher_is_better=False))
        rows.append(Row("3 mixed", f"{kind} p99", p99, raw99, "ms", higher_is_better=False))
    for key in client.scan_iter(match="rq:*"):
        client.delete(key)
    return rows

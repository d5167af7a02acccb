"""Scenario 10: idle timelines (issue 23).

- Rebuilding a dropped home on return (``services.idle.wake_up``): someone following 1,000 accounts, each with a
  few posts, comes back after the sweep dropped their home; time until the home is full again (issue 23's goal:
  under 1 s), against a raw rebuild that reads every profile in one pipeline and merges them in Python (no
  policy, no steps).
- Memory per person (MEMORY USAGE of their keys: user hash, home, following, followers, profile) while active,
  with a full home of 1,000 entries, and once idle, after the drop.
"""

from __future__ import annotations

import time

from bench.graph import bulk_follow, bulk_users
from bench.harness import Context, Row, percentile
from bench.scenarios.exercises import _raw_refill
from timelines import keys, limits, services, store
from timelines.services import idle

MESSAGE = "i" * 140


def _memory(ctx: Context, uid: int) -> int:
    client = ctx.redis
    names = [keys.user(uid), keys.home_timeline(uid), keys.following(uid), keys.followers(uid)]
    names.append(keys.profile_timeline(uid))
    total = sum(int(client.memory_usage(name, samples=0) or 0) for name in names)
    shard = keys.seen_shard(uid % limits.IDLE_SEEN_SHARDS)
    members = max(1, int(client.zcard(shard)))
    if client.zscore(shard, uid) is not None:
        total += int(client.memory_usage(shard, samples=0) or 0) // members
    return total


def run(ctx: Context) -> list[Row]:
    followees = ctx.scale(1_000, 1_000)
    posts_each = ctx.scale(2, 5)
    repeats = ctx.scale(5, 20)
    authors = bulk_users(ctx, followees, prefix="followed")
    readers = bulk_users(ctx, 2, prefix="returning")
    bulk_follow(ctx, [(reader, author) for reader in readers for author in authors])
    for round_ in range(posts_each):
        for author in authors:
            services.post_status(uid=author, message=f"{round_} " + MESSAGE)
    client = ctx.redis
    reader, raw_reader = readers
    idle.fill_timeline(uid=reader)
    now = time.time()
    store.idle.note_seen(reader, now)
    full = min(limits.HOME_TIMELINE_SIZE, followees * posts_each)
    assert client.zcard(keys.home_timeline(reader)) == full
    active = _memory(ctx, reader)
    home_bytes = int(client.memory_usage(keys.home_timeline(reader), samples=0))

    product, raw = [], []
    idle_bytes = 0
    for _ in range(repeats):
        # Dropped as the sweep drops it (the reader's visit long past), then back.
        assert store.idle.drop_homes([reader], now + 1, now) == [1]
        store.idle.count_dropped(1)
        idle_bytes = _memory(ctx, reader)
        start = time.perf_counter()
        assert idle.wake_up(uid=reader)
        product.append((time.perf_counter() - start) * 1000)
        assert client.zcard(keys.home_timeline(reader)) == full

        client.delete(keys.home_timeline(raw_reader))
        start = time.perf_counter()
        _raw_refill(ctx, raw_reader)
        raw.append((time.perf_counter() - start) * 1000)
    assert client.zrange(keys.home_timeline(raw_reader), 0, -1) == client.zrange(keys.home_timeline(reader), 0, -1), (
        "the rebuild and the raw rebuild disagree"
    )
    scenario = "10 idle"
    return [
        Row(
            scenario,
            f"rebuild of a dropped home on return p50, {followees:,} followees",
            percentile(product, 50),
            percentile(raw, 50),
            "ms",
            higher_is_better=False,
            bar="< 1,000 ms",
            passed=percentile(product, 50) < 1000,
            note=f"{posts_each} posts each; raw reads every profile at once, no policy",
        ),
        Row(
            scenario,
            f"rebuild of a dropped home on return p99, {followees:,} followees",
            percentile(product, 99),
            percentile(raw, 99),
            "ms",
            higher_is_better=False,
        ),
        Row(
            scenario,
            "bytes per active person (MEMORY USAGE)",
            active,
            None,
            "B",
            higher_is_better=False,
            note=f"user hash, a home of {full:,} ({home_bytes:,} B), following {followees:,}, profile, last seen",
        ),
        Row(
            scenario,
            "bytes per idle person (MEMORY USAGE)",
            idle_bytes,
            None,
            "B",
            higher_is_better=False,
            note="the same after the sweep dropped the home",
        ),
    ]

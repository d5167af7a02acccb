"""Scenario 12: a network of 100,000 synthetic people (5,000 with ``--quick``), for the capacity plan
(``docs/capacity.md``): what each part of it costs in Redis memory (INFO used_memory before and after each
phase), and the delivery rate of a day's posts through the real services.

Phases: the people (user hashes, logins, last-seen entries); their follows (a power-law graph: everyone follows
the first account, and about 20 others with a preference for the first ranks); posts by random people through
``post_status`` with every deferred job run in-process, then the home entries they wrote; and the idle sweep
dropping the homes of the half who were not seen for a month.
"""

from __future__ import annotations

import random
import time

from bench.graph import bulk_follow, bulk_users, power_law_edges
from bench.harness import Context, Row, drain_jobs
from timelines import keys, limits, services, store
from timelines.services import idle

MESSAGE = "c" * 100  # about a post's median length
PIPELINE = 5_000


def _used(ctx: Context) -> int:
    return int(ctx.redis.info("memory")["used_memory"])


def _home_entries(ctx: Context, uids: list[int]) -> int:
    total = 0
    for start in range(0, len(uids), PIPELINE):
        with ctx.redis.pipeline(transaction=False) as pipe:
            for uid in uids[start : start + PIPELINE]:
                pipe.zcard(keys.home_timeline(uid))
            total += sum(pipe.execute())
    return total


def run(ctx: Context) -> list[Row]:
    people = ctx.scale(5_000, 100_000)
    posts = ctx.scale(1_000, 20_000)
    rng = random.Random(ctx.seed)
    scenario = "12 capacity"
    rows: list[Row] = []

    before = _used(ctx)
    uids = bulk_users(ctx, people, prefix="p")
    now = time.time()
    for start in range(0, people, PIPELINE):
        with ctx.redis.pipeline(transaction=False) as pipe:
            for uid in uids[start : start + PIPELINE]:
                pipe.hset(keys.user(uid), keys.SEEN_FIELD, now)
                pipe.zadd(keys.seen_shard(uid % limits.IDLE_SEEN_SHARDS), {str(uid): now})
            pipe.execute()
    per_person = (_used(ctx) - before) / people
    rows.append(
        Row(scenario, f"bytes per person, {people:,} people (user hash, login, last seen)", per_person, None, "B")
    )

    before = _used(ctx)
    edges = power_law_edges(ctx, uids, 20)
    bulk_follow(ctx, edges)
    per_edge = (_used(ctx) - before) / len(edges)
    rows.append(
        Row(
            scenario,
            f"bytes per follow, {len(edges):,} follows (both sides)",
            per_edge,
            None,
            "B",
            note=f"{len(edges) / people:.1f} per person, power law; most sets small (ziplist), the first account's not",
        )
    )

    authors = [rng.choice(uids[1:]) for _ in range(posts)]
    before = _used(ctx)
    start = time.perf_counter()
    for author in authors:
        services.post_status(uid=author, message=MESSAGE)
        drain_jobs()
    elapsed = time.perf_counter() - start
    entries = _home_entries(ctx, uids)
    grown = _used(ctx) - before
    rows.append(
        Row(
            scenario,
            f"bytes per post with its home entries, {posts:,} posts",
            grown / posts,
            None,
            "B",
            note=f"{entries / posts:.1f} home entries per post; status, profile and search entries included",
        )
    )
    rows.append(
        Row(
            scenario,
            "posts delivered per second, one process (post_status and every deferred job)",
            posts / elapsed,
            None,
            "posts/s",
            note=f"{entries / elapsed:,.0f} home entries/s",
        )
    )

    # Half the people were last seen 31 days ago: the sweep drops their homes.
    away = uids[1::2]
    old = now - 31 * 86_400
    for start in range(0, len(away), PIPELINE):
        with ctx.redis.pipeline(transaction=False) as pipe:
            for uid in away[start : start + PIPELINE]:
                pipe.hset(keys.user(uid), keys.SEEN_FIELD, old)
                pipe.zadd(keys.seen_shard(uid % limits.IDLE_SEEN_SHARDS), {str(uid): old})
            pipe.execute()
    before = _used(ctx)
    start = time.perf_counter()
    dropped = idle.sweep_all(now=now)
    swept = time.perf_counter() - start
    freed = before - _used(ctx)
    assert dropped == len(away) and store.idle.dropped_count() == dropped
    rows.append(
        Row(
            scenario,
            f"bytes freed per idle home dropped, {dropped:,} homes",
            freed / dropped,
            None,
            "B",
            note=f"the sweep dropped {dropped / swept:,.0f} homes/s",
        )
    )
    rows.append(Row(scenario, "used_memory at the end", _used(ctx) / 1e6, None, "MB"))
    return rows

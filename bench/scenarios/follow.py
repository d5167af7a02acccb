"""Scenario 4: follow and unfollow an account that has 1,000 posts: latency p50/p99.

Follow copies the 1,000 statuses into the follower's home; unfollow removes them. Raw: the book's commands
(listings 8.4 and 8.5) pipelined: both ZADDs, both counters, the profile read and the home write.
"""

from __future__ import annotations

import time

from bench import raw as raw_redis
from bench.graph import bulk_users
from bench.harness import Context, Row, summary
from timelines import keys, services


def run(ctx: Context) -> list[Row]:
    author = bulk_users(ctx, 1, prefix="prolific")[0]
    for i in range(1_000):
        services.post_status(uid=author, message=f"post number {i} " + "x" * 120)
    rounds = ctx.scale(40, 200)
    readers = bulk_users(ctx, rounds * 2, prefix="fan")
    client = ctx.redis
    samples: dict[str, list[float]] = {"follow": [], "unfollow": [], "raw follow": [], "raw unfollow": []}
    for i in range(rounds):
        uid, raw_uid = readers[2 * i], readers[2 * i + 1]
        for name, operation in (
            ("follow", lambda uid=uid: services.follow_user(uid=uid, other_uid=author)),
            ("raw follow", lambda raw_uid=raw_uid: raw_redis.follow(client, raw_uid, author)),
            ("unfollow", lambda uid=uid: services.unfollow_user(uid=uid, other_uid=author)),
            ("raw unfollow", lambda raw_uid=raw_uid: raw_redis.unfollow(client, raw_uid, author)),
        ):
            start = time.perf_counter()
            operation()
            samples[name].append((time.perf_counter() - start) * 1000)
    assert client.zcard(keys.home_timeline(readers[0])) == 0
    rows = []
    for name in ("follow", "unfollow"):
        (p50, p99), (raw50, raw99) = summary(samples[name]), summary(samples[f"raw {name}"])
        rows.append(Row("4 follow", f"{name} of a 1,000-post account p50", p50, raw50, "ms", higher_is_better=False))
        rows.append(Row("4 follow", f"{name} of a 1,000-post account p99", p99, raw99, "ms", higher_is_better=False))
    return rows

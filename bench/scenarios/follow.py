"""Scenario 4: follow and unfollow an account that has 1,000 posts: latency p50/p99.

Follow copies the 1,000 statuses into the follower's home; unfollow removes them. Raw: the book's commands
(listings 8.4 and 8.5) pipelined: both ZADDs, both counters, the profile read and the home write.
"""

from __future__ import annotations

import time

from bench.graph import bulk_users
from bench.harness import Context, Row, summary
from timelines import keys, services


def _raw_follow(client, uid: int, other: int) -> None:
    now = time.time()
    with client.pipeline(transaction=False) as pipe:
        pipe.zadd(keys.following(uid), {other: now})
        pipe.zadd(keys.followers(other), {uid: now})
        pipe.hincrby(keys.user(uid), "following", 1)
        pipe.hincrby(keys.user(other), "followers", 1)
        pipe.zrevrange(keys.profile_timeline(other), 0, keys.HOME_TIMELINE_SIZE - 1, withscores=True)
        recent = pipe.execute()[-1]
    with client.pipeline(transaction=True) as pipe:
        pipe.zadd(keys.home_timeline(uid), dict(recent))
        pipe.zremrangebyrank(keys.home_timeline(uid), 0, -keys.HOME_TIMELINE_SIZE - 1)
        pipe.execute()


def _raw_unfollow(client, uid: int, other: int) -> None:
    with client.pipeline(transaction=False) as pipe:
        pipe.zrem(keys.following(uid), other)
        pipe.zrem(keys.followers(other), uid)
        pipe.hincrby(keys.user(uid), "following", -1)
        pipe.hincrby(keys.user(other), "followers", -1)
        pipe.zrevrange(keys.profile_timeline(other), 0, keys.HOME_TIMELINE_SIZE - 1)
        recent = pipe.execute()[-1]
    client.zrem(keys.home_timeline(uid), *recent)


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
            ("raw follow", lambda raw_uid=raw_uid: _raw_follow(client, raw_uid, author)),
            ("unfollow", lambda uid=uid: services.unfollow_user(uid=uid, other_uid=author)),
            ("raw unfollow", lambda raw_uid=raw_uid: _raw_unfollow(client, raw_uid, author)),
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

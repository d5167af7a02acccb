"""Scenario 8: the book's exercises as deferred work (issue 5), each chain of jobs run in-process.

- Cleaning a deleted status out of every follower's home (no zombie ids): followers/s for ``delete_status`` and
  its clean-up chain, against a raw pipelined ZREM over the same followers.
- Refilling a home timeline after an unfollow emptied part of it: time from ``unfollow_user`` to the end of
  the refill chain, reading the profiles of 1,000 followees (5,000 in the full run) in bounded steps, against
  a raw refill that reads every profile's newest entries in one pipeline and merges them in Python.
"""

from __future__ import annotations

import heapq
import time

from bench.graph import bulk_follow, bulk_users
from bench.harness import Context, Row, drain_jobs
from timelines import keys, limits, services

MESSAGE = "e" * 140


def _raw_clean(ctx: Context, uid: int, status_id: int) -> int:
    client = ctx.redis
    cleaned, start = 0, 0
    while True:
        batch = client.zrange(keys.followers(uid), start, start + limits.POSTS_PER_PASS - 1)
        if not batch:
            return cleaned
        with client.pipeline(transaction=False) as pipe:
            for follower in batch:
                pipe.zrem(keys.home_timeline(int(follower)), status_id)
            pipe.execute()
        cleaned += len(batch)
        start += len(batch)


def _cleanup_rows(ctx: Context) -> list[Row]:
    followers = ctx.scale(10_000, 100_000)
    star = bulk_users(ctx, 1, prefix="deleter")[0]
    fans = bulk_users(ctx, followers, prefix="reader")
    bulk_follow(ctx, [(fan, star) for fan in fans])
    client = ctx.redis

    status_id = services.post_status(uid=star, message=MESSAGE)
    drain_jobs()
    start = time.perf_counter()
    services.delete_status(uid=star, status_id=status_id)
    drain_jobs()
    product = followers / (time.perf_counter() - start)
    with client.pipeline(transaction=False) as pipe:
        for fan in fans:
            pipe.zscore(keys.home_timeline(fan), status_id)
        assert all(score is None for score in pipe.execute()), "a zombie id survived the clean-up"

    status_id = services.post_status(uid=star, message=MESSAGE)
    drain_jobs()
    start = time.perf_counter()
    _raw_clean(ctx, star, status_id)
    raw = followers / (time.perf_counter() - start)
    return [Row("8 exercises", f"deleted-id clean-up, {followers:,} followers", product, raw, "followers/s")]


def _raw_refill(ctx: Context, uid: int) -> None:
    client = ctx.redis
    home = keys.home_timeline(uid)
    followees = client.zrange(keys.following(uid), 0, -1)
    with client.pipeline(transaction=False) as pipe:
        for followee in followees:
            pipe.zrevrange(keys.profile_timeline(int(followee)), 0, limits.HOME_TIMELINE_SIZE - 1, withscores=True)
        profiles = pipe.execute()
    newest = heapq.nlargest(
        limits.HOME_TIMELINE_SIZE, (entry for profile in profiles for entry in profile), key=lambda entry: entry[1]
    )
    with client.pipeline(transaction=True) as pipe:
        pipe.zadd(home, dict(newest))
        pipe.zremrangebyrank(home, 0, -limits.HOME_TIMELINE_SIZE - 1)
        pipe.execute()


def _refill_rows(ctx: Context) -> list[Row]:
    followees = ctx.scale(1_000, 5_000)
    # Enough posts that the home is full after the unfollow, whatever the size (--smoke shrinks the authors).
    posts_each = max(ctx.scale(2, 3), -(-limits.HOME_TIMELINE_SIZE // followees) + 1)
    authors = bulk_users(ctx, followees, prefix="source")
    readers = bulk_users(ctx, 2, prefix="refilled")
    bulk_follow(ctx, [(reader, author) for reader in readers for author in authors])
    loud = authors[0]
    for round_ in range(posts_each):
        for author in authors:
            services.post_status(uid=author, message=f"{round_} " + MESSAGE)
    for _ in range(400):  # the followee who will be unfollowed wrote the newest 400 statuses
        services.post_status(uid=loud, message=MESSAGE)
    drain_jobs()
    client = ctx.redis
    product_reader, raw_reader = readers
    assert client.zcard(keys.home_timeline(product_reader)) == limits.HOME_TIMELINE_SIZE

    start = time.perf_counter()
    services.unfollow_user(uid=product_reader, other_uid=loud)
    returned = time.perf_counter() - start
    drain_jobs()
    product = time.perf_counter() - start
    assert client.zcard(keys.home_timeline(product_reader)) == limits.HOME_TIMELINE_SIZE

    services.unfollow_user(uid=raw_reader, other_uid=loud)
    client.delete("rq:queue:default")
    start = time.perf_counter()
    _raw_refill(ctx, raw_reader)
    raw = time.perf_counter() - start
    assert client.zrange(keys.home_timeline(raw_reader), 0, -1) == client.zrange(
        keys.home_timeline(product_reader), 0, -1
    ), "the refill and the raw refill disagree"
    return [
        Row(
            "8 exercises",
            f"unfollow returns, {followees:,} followees",
            returned * 1000,
            None,
            "ms",
            higher_is_better=False,
            note="the refill is queued",
        ),
        Row(
            "8 exercises",
            f"refill after unfollow, {followees:,} followees",
            product * 1000,
            raw * 1000,
            "ms",
            higher_is_better=False,
            note="product in bounded steps; raw reads every profile at once",
        ),
    ]


def run(ctx: Context) -> list[Row]:
    return _cleanup_rows(ctx) + _refill_rows(ctx)

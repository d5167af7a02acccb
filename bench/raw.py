"""The raw side of the benchmarks: each social-network operation as the minimal redis-py commands, pipelined,
the way the book's listings issue them, with no validation, no events and no bookkeeping. The scenarios run
these in the same process, on the same Redis, as the product's services, and report the ratio.
"""

from __future__ import annotations

import time

import redis

from timelines import keys, limits

MESSAGE = "r" * 140
RAW_JOBS = "bench:raw-jobs"
RAW_STREAM = "bench:raw-stream"


def read_home(client: redis.Redis, uid: int, count: int = 30) -> list[dict[str, str]]:
    """Book listing 8.3: the ids, then one pipeline of HGETALLs."""
    ids = client.zrevrange(keys.home_timeline(uid), 0, count - 1)
    with client.pipeline(transaction=False) as pipe:
        for status_id in ids:
            pipe.hgetall(keys.status(int(status_id)))
        return [status for status in pipe.execute() if status]


def post(client: redis.Redis, uid: int, status_id: int, message: str = MESSAGE) -> None:
    """Book listings 8.2, 8.6 and 8.7: the status hash, profile and own home, the first batch of followers
    pipelined, a job pushed for the rest, and the PUBLISH of listing 8.13."""
    posted = time.time()
    client.hset(
        keys.status(status_id),
        mapping={"message": message, "posted": posted, "id": status_id, "uid": uid, "login": "raw", "name": "Raw"},
    )
    with client.pipeline(transaction=True) as pipe:
        pipe.zadd(keys.profile_timeline(uid), {status_id: posted})
        pipe.zadd(keys.home_timeline(uid), {status_id: posted})
        pipe.zremrangebyrank(keys.home_timeline(uid), 0, -limits.HOME_TIMELINE_SIZE - 1)
        pipe.hincrby(keys.user(uid), "posts", 1)
        pipe.execute()
    batch = client.zrangebyscore(keys.followers(uid), "-inf", "+inf", start=0, num=limits.POSTS_PER_PASS)
    with client.pipeline(transaction=False) as pipe:
        for follower in batch:
            pipe.zadd(keys.home_timeline(int(follower)), {status_id: posted})
            pipe.zremrangebyrank(keys.home_timeline(int(follower)), 0, -limits.HOME_TIMELINE_SIZE - 1)
        pipe.execute()
    if len(batch) >= limits.POSTS_PER_PASS:
        client.rpush(RAW_JOBS, f"{status_id}:{batch[-1]}")
    client.publish(RAW_STREAM, message)


def follow(client: redis.Redis, uid: int, other: int) -> None:
    """Book listing 8.4: both sets, both counters, the followee's profile copied into home and trimmed."""
    now = time.time()
    with client.pipeline(transaction=False) as pipe:
        pipe.zadd(keys.following(uid), {other: now})
        pipe.zadd(keys.followers(other), {uid: now})
        pipe.hincrby(keys.user(uid), "following", 1)
        pipe.hincrby(keys.user(other), "followers", 1)
        pipe.zrevrange(keys.profile_timeline(other), 0, limits.HOME_TIMELINE_SIZE - 1, withscores=True)
        recent = pipe.execute()[-1]
    with client.pipeline(transaction=True) as pipe:
        if recent:
            pipe.zadd(keys.home_timeline(uid), dict(recent))
        pipe.zremrangebyrank(keys.home_timeline(uid), 0, -limits.HOME_TIMELINE_SIZE - 1)
        pipe.execute()


def unfollow(client: redis.Redis, uid: int, other: int) -> None:
    """Book listing 8.5: both sets, both counters, the followee's latest statuses removed from home."""
    with client.pipeline(transaction=False) as pipe:
        pipe.zrem(keys.following(uid), other)
        pipe.zrem(keys.followers(other), uid)
        pipe.hincrby(keys.user(uid), "following", -1)
        pipe.hincrby(keys.user(other), "followers", -1)
        pipe.zrevrange(keys.profile_timeline(other), 0, limits.HOME_TIMELINE_SIZE - 1)
        recent = pipe.execute()[-1]
    if recent:
        client.zrem(keys.home_timeline(uid), *recent)


def toggle_follow(client: redis.Redis, uid: int, other: int) -> None:
    if client.zscore(keys.following(uid), other) is None:
        follow(client, uid, other)
    else:
        unfollow(client, uid, other)

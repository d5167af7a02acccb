"""Scenario 2: posting with fan-out.

- ``post_status`` latency (p50, p99) with 10, 1,000, 10,000 and 100,000 followers. Bar: the p99 must not grow
  past the 1,000-follower figure, since only POSTS_PER_PASS followers are written inline. Raw: the same inline
  commands (status hash, profile/home, one follower batch pipelined, the job push, PUBLISH).
- Deferred fan-out throughput in followers/s: ``services.syndicate_status`` over every batch, against a raw
  pipelined ZADD+trim loop over the same followers. Bar: at least 70% of raw. A Lua script per batch is tried
  as well and reported beside them.
- Time until every follower's home holds the post with RQ workers running (as ``manage.py serve`` runs them).
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import time
from pathlib import Path

from bench.graph import bulk_follow, bulk_users
from bench.harness import Context, Row, summary, timed
from timelines import jobs, keys, services, store

MESSAGE = "m" * 140
LUA_BATCH = """
-- Bench experiment: ZADD + trim for every key of one batch in one script (crosses hash slots, so it would
-- not run on Redis Cluster; measured to compare, see README).
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], ARGV[1], ARGV[2])
  redis.call('ZREMRANGEBYRANK', KEYS[i], 0, -tonumber(ARGV[3]) - 1)
end
return #KEYS
"""


def _raw_post(ctx: Context, uid: int, status_id: int, followers: int) -> None:
    client = ctx.redis
    posted = time.time()
    client.hset(
        keys.status(status_id),
        mapping={"message": MESSAGE, "posted": posted, "id": status_id, "uid": uid, "login": "raw", "name": "Raw"},
    )
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
    if followers > keys.POSTS_PER_PASS:
        client.rpush("bench:raw-jobs", f"{status_id}:{batch[-1]}")
    client.publish("bench:raw-stream", MESSAGE)


def _clear_jobs(ctx: Context) -> None:
    client = ctx.redis
    for key in client.scan_iter(match="rq:*"):
        client.delete(key)
    client.delete("bench:raw-jobs")


def _raw_fanout(ctx: Context, uid: int, status_id: int, posted: float) -> int:
    client = ctx.redis
    reached, cursor = 0, "-inf"
    while True:
        batch = client.zrangebyscore(
            keys.followers(uid),
            cursor,
            "+inf",
            start=0 if cursor == "-inf" else 1,
            num=keys.POSTS_PER_PASS,
            withscores=True,
        )
        if not batch:
            return reached
        with client.pipeline(transaction=False) as pipe:
            for follower, _ in batch:
                home = keys.home_timeline(int(follower))
                pipe.zadd(home, {status_id: posted})
                pipe.zremrangebyrank(home, 0, -keys.HOME_TIMELINE_SIZE - 1)
            pipe.execute()
        reached += len(batch)
        cursor = repr(batch[-1][1])


def _lua_fanout(ctx: Context, uid: int, status_id: int, posted: float) -> int:
    client = ctx.redis
    script = client.register_script(LUA_BATCH)
    reached, cursor = 0, None
    while True:
        batch = store.followers_after(uid, cursor, keys.POSTS_PER_PASS)
        if not batch:
            return reached
        script(
            keys=[keys.home_timeline(int(member)) for member, _ in batch],
            args=[repr(posted), status_id, keys.HOME_TIMELINE_SIZE],
        )
        reached += len(batch)
        cursor = (batch[-1][1], batch[-1][0])


def _product_fanout(uid: int, status_id: int, posted: float) -> int:
    """Every batch of the deferred fan-out in turn: what each job of the chain does in ``syndicate_status``
    (read the batch after the cursor, write the homes, enqueue the next job), without the worker around it."""
    reached, cursor = 0, None
    while True:
        batch = store.followers_after(uid, cursor, keys.POSTS_PER_PASS)
        if not batch:
            return reached
        store.push_to_home_timelines([member for member, _ in batch], status_id, posted)
        reached += len(batch)
        cursor = (batch[-1][1], batch[-1][0])
        if len(batch) >= keys.POSTS_PER_PASS:
            jobs.enqueue_syndication(uid=uid, status_id=status_id, posted=posted, cursor=cursor)


def _start_workers(count: int) -> list[subprocess.Popen[bytes]]:
    manage = Path(__file__).resolve().parents[2] / "manage.py"
    return [
        subprocess.Popen(
            [sys.executable, str(manage), "rqworker", "--with-scheduler", "default"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(count)
    ]


def run(ctx: Context) -> list[Row]:
    sizes = ctx.scale([10, 1_000, 10_000], [10, 1_000, 10_000, 100_000])
    posts = ctx.scale(30, 100)
    rows: list[Row] = []
    p99_at_1000 = None
    biggest: tuple[int, list[int]] | None = None
    for size in sizes:
        star = bulk_users(ctx, 1, prefix=f"star{size}_")[0]
        fans = bulk_users(ctx, size, prefix=f"fan{size}_")
        bulk_follow(ctx, [(fan, star) for fan in fans])
        services.post_status(uid=star, message=MESSAGE)  # warm up: scripts load on first use
        product = timed(lambda star=star: services.post_status(uid=star, message=MESSAGE), posts)
        _clear_jobs(ctx)
        raw_ids = itertools.count(10**12 + size * 1000)
        raw = timed(lambda star=star, size=size, raw_ids=raw_ids: _raw_post(ctx, star, next(raw_ids), size), posts)
        _clear_jobs(ctx)
        (p50, p99), (raw50, raw99) = summary(product), summary(raw)
        if size == 1_000:
            p99_at_1000 = p99
        bar, passed = "", None
        if size > 1_000 and p99_at_1000 is not None:
            bar, passed = "p99 <= 1,000-follower p99 (+20% noise)", p99 <= p99_at_1000 * 1.2
        rows.append(Row("2 post", f"post_status p50, {size:,} followers", p50, raw50, "ms", higher_is_better=False))
        rows.append(
            Row(
                "2 post",
                f"post_status p99, {size:,} followers",
                p99,
                raw99,
                "ms",
                higher_is_better=False,
                bar=bar,
                passed=passed,
            )
        )
        biggest = (star, fans)

    assert biggest is not None
    star, fans = biggest
    total = len(fans)
    posted = time.time()
    variants = {
        "product": lambda status_id: _product_fanout(star, status_id, posted),
        "raw": lambda status_id: _raw_fanout(ctx, star, status_id, posted),
        "lua": lambda status_id: _lua_fanout(ctx, star, status_id, posted),
    }
    rates: dict[str, float] = {}
    for attempt, (variant, fan_out) in enumerate(variants.items()):
        start = time.perf_counter()
        reached = fan_out(2 * 10**12 + attempt)
        rates[variant] = reached / (time.perf_counter() - start)
        assert reached == total, (variant, reached, total)
    _clear_jobs(ctx)
    product_rate, raw_rate, lua_rate = rates["product"], rates["raw"], rates["lua"]
    rows.append(
        Row(
            "2 post",
            f"deferred fan-out, {total:,} followers",
            product_rate,
            raw_rate,
            "followers/s",
            bar=">= 70% of raw",
            passed=product_rate >= 0.7 * raw_rate,
        )
    )
    rows.append(
        Row(
            "2 post",
            "deferred fan-out, Lua script per batch",
            lua_rate,
            raw_rate,
            "followers/s",
            note="crosses hash slots; not used (see README)",
        )
    )

    workers = _start_workers(2)
    try:
        time.sleep(1.0)  # let the workers connect
        start = time.perf_counter()
        status_id = services.post_status(uid=star, message=MESSAGE)
        last = keys.home_timeline(fans[-1])
        client = ctx.redis
        while client.zscore(last, status_id) is None:
            if time.perf_counter() - start > 300:
                raise AssertionError("fan-out did not finish in 5 minutes")
            time.sleep(0.005)
        elapsed = time.perf_counter() - start
        with client.pipeline(transaction=False) as pipe:
            for fan in fans:
                pipe.zscore(keys.home_timeline(fan), status_id)
            assert all(score is not None for score in pipe.execute())
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=30)
    rows.append(
        Row(
            "2 post",
            f"post to all {total:,} homes, 2 RQ workers",
            elapsed * 1000,
            None,
            "ms",
            higher_is_better=False,
            note=f"{total / elapsed:,.0f} followers/s end to end",
        )
    )
    _clear_jobs(ctx)
    return rows

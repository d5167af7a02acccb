"""Scenario 1: read a home timeline page of 30 hydrated statuses, from one process and from two.

Product: ``selectors.get_status_messages(uid=..., count=30)``. Raw: ZREVRANGE of 30 ids, then one pipeline of
30 HGETALLs. Bars: product reads/s at least 90% of raw; at most 2 round trips per read.
"""

from __future__ import annotations

import multiprocessing
import os

from bench import raw as raw_redis
from bench.graph import bulk_follow, bulk_users
from bench.harness import Context, RoundTrips, Row, compare_rates
from socialsite import redis_client
from timelines import limits, selectors, services

PAGE = 30


def _product_read(uid: int) -> list[dict]:
    return selectors.get_status_messages(uid=uid, count=PAGE)


def _worker(uid: int, seconds: float, start, results) -> None:  # type: ignore[no-untyped-def]
    redis_client.reset()  # a forked child must not share the parent's sockets
    client = redis_client.get_redis()
    _product_read(uid)
    raw_redis.read_home(client, uid, PAGE)
    start.wait()
    results.put(compare_rates(lambda: _product_read(uid), lambda: raw_redis.read_home(client, uid, PAGE), seconds))


def _parallel_rates(uid: int, seconds: float, processes: int) -> tuple[float, float]:
    """Product and raw reads/s summed over ``processes`` processes reading at the same time (each alternates
    product and raw rounds in step with the others)."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    start = context.Event()
    workers = [context.Process(target=_worker, args=(uid, seconds, start, results)) for _ in range(processes)]
    for worker in workers:
        worker.start()
    start.set()
    pairs = [results.get(timeout=seconds + 60) for _ in workers]
    for worker in workers:
        worker.join()
    return sum(product for product, _ in pairs), sum(raw for _, raw in pairs)


def run(ctx: Context, trips: RoundTrips) -> list[Row]:
    reader = bulk_users(ctx, 1, prefix="reader")[0]
    authors = bulk_users(ctx, 50, prefix="author")
    bulk_follow(ctx, [(reader, author) for author in authors])
    message = "x" * 140
    for i in range(limits.HOME_TIMELINE_SIZE + 50):
        services.post_status(uid=authors[i % len(authors)], message=message)
    assert len(_product_read(reader)) == PAGE

    seconds = ctx.scale(1.2, 8.0)
    client = ctx.redis
    rows = []
    product_trips = trips.measure(lambda: _product_read(reader))
    rows.append(
        Row(
            "1 home read",
            "round trips per read",
            product_trips,
            2,
            "",
            higher_is_better=False,
            bar="<= 2",
            passed=product_trips <= 2,
        )
    )
    for processes in (1, 2):
        if processes == 1:
            product, raw = compare_rates(
                lambda: _product_read(reader), lambda: raw_redis.read_home(client, reader, PAGE), seconds
            )
        else:
            product, raw = _parallel_rates(reader, seconds, processes)
        rows.append(
            Row(
                "1 home read",
                f"reads/s, {processes} process{'es' if processes > 1 else ''}",
                product,
                raw,
                "reads/s",
                bar=">= 90% of raw",
                passed=product >= 0.9 * raw,
            )
        )
    ctx.info["cpu_count"] = os.cpu_count()
    return rows

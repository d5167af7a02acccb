"""Scenario 7: the streaming API with 1, 100 and 1,000 connected clients: delivery latency p50/p99 (from the
status's ``posted`` time to its arrival at the client) and deliveries per second.

Product: ``/statuses/sample.json?percent=100`` streams through daphne, fed by the process's one shared Redis
subscription (``streaming.hub``). Raw: the book's design, every client its own Redis connection subscribed to
the channel, receiving the very same events. Both sides get the same posts at the same pace, one after the
other, and are read by clients in this process.
"""

from __future__ import annotations

import asyncio
import json
import os
import time

import redis.asyncio

from bench.graph import bulk_users
from bench.harness import Context, Row
from socialsite import testing
from streaming import loadclient
from timelines import keys, services

POST_INTERVAL_SECONDS = 0.02


def _p(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))] * 1000 if ordered else float("nan")


async def _post(author: int, posts: int) -> float:
    """Post ``posts`` statuses at a steady pace; returns how long it took."""
    started = time.perf_counter()
    for i in range(posts):
        await asyncio.to_thread(services.post_status, uid=author, message=f"stream bench {i} " + "s" * 120)
        await asyncio.sleep(POST_INTERVAL_SECONDS)
    return time.perf_counter() - started


async def _product(url: str, clients: int, author: int, posts: int) -> tuple[list[float], float]:
    listeners = await loadclient.open_listeners(clients, url=url, kind="sample", params={"percent": "100"})
    try:
        await asyncio.sleep(0.2)
        started = time.perf_counter()
        await _post(author, posts)
        await loadclient.wait_until(lambda: all(len(lsn.status_ids()) >= posts for lsn in listeners), timeout=60)
        elapsed = time.perf_counter() - started
    finally:
        await loadclient.close_all(listeners)
    return loadclient.latencies(listeners), elapsed


async def _raw(redis_url: str, clients: int, author: int, posts: int) -> tuple[list[float], float]:
    arrivals: list[float] = []
    counts = [0] * clients
    connections = []

    async def listen(index: int, pubsub) -> None:  # type: ignore[no-untyped-def]
        async for message in pubsub.listen():
            if message["type"] == "message":
                arrivals.append(time.time() - float(json.loads(message["data"])["status"]["posted"]))
                counts[index] += 1

    tasks = []
    try:
        for index in range(clients):
            client = redis.asyncio.Redis.from_url(redis_url, decode_responses=True, socket_timeout=None)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            await pubsub.subscribe(keys.STREAM_CHANNEL)
            connections.append((client, pubsub))
            tasks.append(asyncio.ensure_future(listen(index, pubsub)))
        await asyncio.sleep(0.2)
        started = time.perf_counter()
        await _post(author, posts)
        await loadclient.wait_until(lambda: min(counts) >= posts, timeout=60)
        elapsed = time.perf_counter() - started
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client, pubsub in connections:
            await pubsub.aclose()
            await client.aclose()
    return arrivals, elapsed


def run(ctx: Context) -> list[Row]:
    loadclient.raise_file_limit()
    author = bulk_users(ctx, 1, prefix="streamer")[0]
    posts = ctx.scale(12, 60)
    rows: list[Row] = []
    env = {**os.environ, "STREAMING_HUB_ENDPOINT": "0"}
    with testing.daphne(env, start_timeout=30, stop_timeout=3) as (url, _):
        for clients in (1, 100, 1_000):
            product, product_seconds = asyncio.run(_product(url, clients, author, posts))
            # On a cluster the raw subscribers listen on a node of it, as the site's subscriber does.
            raw_url = os.environ.get("REDIS_CLUSTER_URL") or os.environ["REDIS_URL"]
            raw, raw_seconds = asyncio.run(_raw(raw_url, clients, author, posts))
            label = f"{clients:,} client{'s' if clients > 1 else ''}"
            rows.append(
                Row(
                    "7 streaming",
                    f"delivery p50, {label}",
                    _p(product, 0.5),
                    _p(raw, 0.5),
                    "ms",
                    higher_is_better=False,
                )
            )
            rows.append(
                Row(
                    "7 streaming",
                    f"delivery p99, {label}",
                    _p(product, 0.99),
                    _p(raw, 0.99),
                    "ms",
                    higher_is_better=False,
                )
            )
            rows.append(
                Row(
                    "7 streaming",
                    f"deliveries/s, {label}",
                    len(product) / product_seconds,
                    len(raw) / raw_seconds,
                    "msgs/s",
                    note=f"{posts} posts at {1 / POST_INTERVAL_SECONDS:.0f}/s; raw: a Redis connection per client"
                    if clients == 1_000
                    else "",
                )
            )
            if len(product) < clients * posts:
                rows[-1].note = f"only {len(product)} of {clients * posts} delivered"
    return rows

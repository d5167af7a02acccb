"""Scenario 1: read a home timeline page of 30 hydrated statuses, from one process and from two.

Product: ``selectors.get_status_messages(uid=..., count=30)``. Raw: ZREVRANGE of 30 ids, then one pipeline of
30 HGETALLs. Book: listing 8.3 as printed (the same commands, through the book's own code). All three read the
same timeline shape (50 followed authors, 1,050 posts), in alternating rounds. Bars: product reads/s at least
2x the book's, with a p99 no worse; at most 2 round trips per read.
"""

from __future__ import annotations

import multiprocessing
import os

from bench import book
from bench import raw as raw_redis
from bench.graph import bulk_follow, bulk_users
from bench.harness import Context, RoundTrips, Row, compare_many, latencies_in_turns, summary
from socialsite import redis_client
from timelines import limits, selectors, services

PAGE = 30
AUTHORS = 50


def _product_read(uid: int) -> list[dict]:
    return selectors.get_status_messages(uid=uid, count=PAGE)


def _contenders(client, book_conn, uid: int, book_uid: int | None) -> list:  # type: ignore[no-untyped-def]
    contenders = [lambda: _product_read(uid), lambda: raw_redis.read_home(client, uid, PAGE)]
    if book_conn is not None:
        contenders.append(lambda: book.read_home(book_conn, book_uid, PAGE))
    return contenders


def _worker(ctx: Context, uid: int, book_uid: int | None, seconds: float, start, results) -> None:  # type: ignore[no-untyped-def]
    redis_client.reset()  # a forked child must not share the parent's sockets
    book_conn = book.connect(ctx) if book_uid is not None else None
    contenders = _contenders(redis_client.get_redis(), book_conn, uid, book_uid)
    for contender in contenders:
        contender()
    start.wait()
    results.put(compare_many(contenders, seconds))


def _parallel_rates(ctx: Context, uid: int, book_uid: int | None, seconds: float, processes: int) -> list[float]:
    """Reads/s of each contender summed over ``processes`` processes reading at the same time (each alternates
    its rounds in step with the others)."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    start = context.Event()
    workers = [
        context.Process(target=_worker, args=(ctx, uid, book_uid, seconds, start, results)) for _ in range(processes)
    ]
    for worker in workers:
        worker.start()
    start.set()
    found = [results.get(timeout=seconds * 3 + 60) for _ in workers]
    for worker in workers:
        worker.join()
    return [sum(rates) for rates in zip(*found, strict=True)]


def _book_setup(ctx: Context):  # type: ignore[no-untyped-def]
    if not book.available():
        return None, None
    conn = book.connect(ctx)
    reader = book.bulk_users(conn, 1, prefix="reader")[0]
    authors = book.bulk_users(conn, AUTHORS, prefix="author")
    book.bulk_follow(conn, [(reader, author) for author in authors])
    for i in range(limits.HOME_TIMELINE_SIZE + 50):
        book.post(conn, authors[i % len(authors)], "x" * 140)
    assert len(book.read_home(conn, reader, PAGE)) == PAGE
    return conn, reader


def run(ctx: Context, trips: RoundTrips) -> list[Row]:
    reader = bulk_users(ctx, 1, prefix="reader")[0]
    authors = bulk_users(ctx, AUTHORS, prefix="author")
    bulk_follow(ctx, [(reader, author) for author in authors])
    message = "x" * 140
    for i in range(limits.HOME_TIMELINE_SIZE + 50):
        services.post_status(uid=authors[i % len(authors)], message=message)
    assert len(_product_read(reader)) == PAGE
    book_conn, book_reader = _book_setup(ctx)

    seconds = ctx.scale(1.5, 8.0)
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
            rates = compare_many(_contenders(client, book_conn, reader, book_reader), seconds)
        else:
            rates = _parallel_rates(ctx, reader, book_reader, seconds, processes)
        product, raw, book_rate = [*rates, None][:3]
        rows.append(
            Row(
                "1 home read",
                f"reads/s, {processes} process{'es' if processes > 1 else ''}",
                product,
                raw,
                "reads/s",
                bar=">= 2.0x book" if book_rate else "",
                passed=product >= 2.0 * book_rate if book_rate else None,
                book=book_rate,
            )
        )
    names = ["product", "raw", "book"][: 3 if book_conn is not None else 2]
    samples = latencies_in_turns(
        dict(zip(names, _contenders(client, book_conn, reader, book_reader), strict=True)), ctx.scale(500, 3_000)
    )
    for index, label in ((0, "p50"), (1, "p99")):
        values = {name: summary(samples[name])[index] for name in names}
        book_value = values.get("book")
        rows.append(
            Row(
                "1 home read",
                f"read latency {label}",
                values["product"],
                values["raw"],
                "ms",
                higher_is_better=False,
                bar="<= book" if label == "p99" and book_value else "",
                passed=values["product"] <= book_value if label == "p99" and book_value else None,
                book=book_value,
            )
        )
    ctx.info["cpu_count"] = os.cpu_count()
    return rows

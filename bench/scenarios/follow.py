"""Scenario 4: follow and unfollow an account that has 1,000 posts: latency p50/p99.

Follow copies the 1,000 statuses into the follower's home; unfollow removes them. Raw: the book's commands
(listings 8.4 and 8.5) pipelined: both ZADDs, both counters, the profile read and the home write. Book: listings
8.4 and 8.5 as printed (``bench/book_ch8.py``), on its own database of the same server. The three take turns.
Bar: product p50 within 1.5x of the book's (it also checks blocks and privacy, notifies, and queues a refill
after an unfollow).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bench import book
from bench import raw as raw_redis
from bench.graph import bulk_users
from bench.harness import Context, Row, summary
from timelines import keys, services

POSTS = 1_000


def _book_operations(ctx: Context, rounds: int) -> dict[str, Callable[[int], Any]] | None:
    """The book's follow and unfollow of its own 1,000-post author, by the i-th of its own readers."""
    if not book.available():
        return None
    conn = book.connect(ctx)
    author = book.bulk_users(conn, 1, prefix="prolific")[0]
    for i in range(POSTS):
        book.post(conn, author, f"post number {i} " + "x" * 120)
    readers = book.bulk_users(conn, rounds, prefix="fan")
    return {
        "book follow": lambda i: book.follow(conn, readers[i], author),
        "book unfollow": lambda i: book.unfollow(conn, readers[i], author),
    }


def run(ctx: Context) -> list[Row]:
    author = bulk_users(ctx, 1, prefix="prolific")[0]
    for i in range(POSTS):
        services.post_status(uid=author, message=f"post number {i} " + "x" * 120)
    rounds = ctx.scale(40, 200)
    readers = bulk_users(ctx, rounds * 2, prefix="fan")
    book_operations = _book_operations(ctx, rounds)
    client = ctx.redis
    samples: dict[str, list[float]] = {}
    for i in range(rounds):
        uid, raw_uid = readers[2 * i], readers[2 * i + 1]
        operations: list[tuple[str, Callable[[], Any]]] = [
            ("follow", lambda uid=uid: services.follow_user(uid=uid, other_uid=author)),
            ("raw follow", lambda raw_uid=raw_uid: raw_redis.follow(client, raw_uid, author)),
            ("unfollow", lambda uid=uid: services.unfollow_user(uid=uid, other_uid=author)),
            ("raw unfollow", lambda raw_uid=raw_uid: raw_redis.unfollow(client, raw_uid, author)),
        ]
        if book_operations is not None:
            operations.insert(2, ("book follow", lambda i=i: book_operations["book follow"](i)))
            operations.append(("book unfollow", lambda i=i: book_operations["book unfollow"](i)))
        for name, operation in operations:
            start = time.perf_counter()
            operation()
            samples.setdefault(name, []).append((time.perf_counter() - start) * 1000)
    assert client.zcard(keys.home_timeline(readers[0])) == 0
    rows = []
    for name in ("follow", "unfollow"):
        product, raw = summary(samples[name]), summary(samples[f"raw {name}"])
        book_figures = summary(samples[f"book {name}"]) if f"book {name}" in samples else (None, None)
        for index, label in ((0, "p50"), (1, "p99")):
            book_value = book_figures[index]
            bar = label == "p50" and book_value is not None
            rows.append(
                Row(
                    "4 follow",
                    f"{name} of a 1,000-post account {label}",
                    product[index],
                    raw[index],
                    "ms",
                    higher_is_better=False,
                    bar="<= 1.5x book" if bar else "",
                    passed=product[index] <= 1.5 * book_value if bar else None,
                    book=book_value,
                )
            )
    return rows

"""The ``book`` column: the book's own chapter-8 code (``bench/book_ch8.py``, listings 8.1-8.8 as printed) doing
what each scenario measures, on the same Redis server in the same run, in turns with socialsite.

The book writes its own key names (``user:<id>``, ``home:<id>``, ``users:``, ``status:id:`` ...), some of which
socialsite also uses, so it gets its own database (``BOOK_DB``) on the same server: the same process, memory and
CPU, none of the same keys. A Redis Cluster has one database and refuses the book's multi-key transactions, so
there the column stays empty.

Set-up helpers write the book's data shapes in large pipelines (creating thousands of users and follows through
its locks would take minutes); ``check_counters`` fails loudly if they disagree with what ``follow_user`` keeps.
"""

from __future__ import annotations

import time
from typing import Any

import redis

from bench import book_ch8
from bench.harness import Context
from socialsite import redis_client

BOOK_DB = 1
CHUNK = 5_000


def available() -> bool:
    return not redis_client.is_cluster()


def connect(ctx: Context) -> redis.Redis:
    """A client on the book's database of the benchmark's server, as the book connects (str replies)."""
    pool = ctx.redis.connection_pool
    kwargs: dict[str, Any] = {**pool.connection_kwargs, "db": BOOK_DB, "decode_responses": True}
    kwargs.pop("health_check_interval", None)
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class, **kwargs))


def bulk_users(conn: redis.Redis, n: int, prefix: str = "u") -> list[int]:
    """``n`` users exactly as listing 8.1's ``create_user`` writes them; returns their ids."""
    last = conn.incrby("user:id:", n)
    uids = list(range(last - n + 1, last + 1))
    now = time.time()
    for start in range(0, n, CHUNK):
        with conn.pipeline(transaction=False) as pipe:
            for uid in uids[start : start + CHUNK]:
                login = f"{prefix}{uid}"
                pipe.hset("users:", login, uid)
                pipe.hset(
                    f"user:{uid}",
                    mapping={
                        "login": login,
                        "id": uid,
                        "name": login.title(),
                        "followers": 0,
                        "following": 0,
                        "posts": 0,
                        "signup": now,
                    },
                )
            pipe.execute()
    return uids


def bulk_follow(conn: redis.Redis, edges: list[tuple[int, int]]) -> None:
    """(follower, followee) edges as listing 8.4 leaves them, with distinct follow times, and the counters."""
    base = time.time()
    followers: set[int] = set()
    followees: set[int] = set()
    for start in range(0, len(edges), CHUNK):
        with conn.pipeline(transaction=False) as pipe:
            for offset, (follower, followee) in enumerate(edges[start : start + CHUNK]):
                score = base + (start + offset) * 1e-6
                pipe.zadd(f"following:{follower}", {str(followee): score})
                pipe.zadd(f"followers:{followee}", {str(follower): score})
                followers.add(follower)
                followees.add(followee)
            pipe.execute()
    for uids, prefix, field in ((followers, "following", "following"), (followees, "followers", "followers")):
        ordered = sorted(uids)
        for start in range(0, len(ordered), CHUNK):
            chunk = ordered[start : start + CHUNK]
            with conn.pipeline(transaction=False) as pipe:
                for uid in chunk:
                    pipe.zcard(f"{prefix}:{uid}")
                sizes = pipe.execute()
            with conn.pipeline(transaction=False) as pipe:
                for uid, size in zip(chunk, sizes, strict=True):
                    pipe.hset(f"user:{uid}", field, size)
                pipe.execute()


def check_counters(conn: redis.Redis, uids: list[int]) -> None:
    sample = uids[:: max(1, len(uids) // 200)]
    for uid in sample:
        followers, following = conn.hmget(f"user:{uid}", "followers", "following")
        if (int(followers), int(following)) != (conn.zcard(f"followers:{uid}"), conn.zcard(f"following:{uid}")):
            raise AssertionError(f"book set-up broke the counters of user {uid}")


def create_status(conn: redis.Redis, uid: int, message: str, **data: Any) -> Any:
    """Listing 8.2 as printed: the status hash alone (with the book's ``**data``, such as ``location``)."""
    return book_ch8.create_status(conn, uid, message, **data)


def post(conn: redis.Redis, uid: int, message: str) -> Any:
    """Listing 8.6 as printed: the first 1,000 followers inline, the rest queued (``execute_later``)."""
    return book_ch8.post_status(conn, uid, message)


def read_home(conn: redis.Redis, uid: int, count: int = 30) -> list[dict[str, str]]:
    """Listing 8.3 as printed."""
    return book_ch8.get_status_messages(conn, uid, count=count)


def follow(conn: redis.Redis, uid: int, other: int) -> Any:
    """Listing 8.4 as printed."""
    return book_ch8.follow_user(conn, uid, other)


def unfollow(conn: redis.Redis, uid: int, other: int) -> Any:
    """Listing 8.5 as printed."""
    return book_ch8.unfollow_user(conn, uid, other)


def post_everywhere(conn: redis.Redis, uid: int, message: str) -> Any:
    """Listing 8.6 with every pass of listing 8.7 run at once in the caller (``book_ch8``'s "sync" mode), as
    socialsite's deferred fan-out is timed: the book's whole fan-out, without its worker's polling."""
    book_ch8.set_deferred_mode("sync")
    try:
        return book_ch8.post_status(conn, uid, message)
    finally:
        book_ch8.set_deferred_mode("queue")


def toggle_follow(conn: redis.Redis, uid: int, other: int) -> None:
    if conn.zscore(f"following:{uid}", other) is None:
        book_ch8.follow_user(conn, uid, other)
    else:
        book_ch8.unfollow_user(conn, uid, other)


def clear_queue(conn: redis.Redis) -> None:
    """Drop the book's queued continuations (``execute_later``), as the scenarios drop socialsite's jobs."""
    conn.delete("queue:default")

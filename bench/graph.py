"""Fast set-up of large follower graphs for the benchmarks (not measured).

Creating 100,000 users through ``services.create_user`` and ``follow_user`` would take minutes; these helpers
write the same keys in large pipelines instead, in exactly the shape the services produce (checked by
``check_counters``), so the measured operations run against realistic data.
"""

from __future__ import annotations

import itertools
import random
import time

from bench.harness import Context
from timelines import keys

CHUNK = 5_000


def bulk_users(ctx: Context, n: int, prefix: str = "u") -> list[int]:
    """Create ``n`` users with empty timelines; returns their uids."""
    client = ctx.redis
    last = client.incrby(keys.USER_ID_COUNTER, n)
    uids = list(range(last - n + 1, last + 1))
    now = time.time()
    for start in range(0, n, CHUNK):
        with client.pipeline(transaction=False) as pipe:
            for uid in uids[start : start + CHUNK]:
                login = f"{prefix}{uid}"
                pipe.hset(
                    keys.user(uid),
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
                pipe.hset(keys.USERS_BY_LOGIN, login, uid)
            pipe.execute()
    return uids


def bulk_follow(ctx: Context, edges: list[tuple[int, int]]) -> None:
    """Add (follower, followee) edges with distinct follow times, then set every touched counter from its set."""
    client = ctx.redis
    base = time.time()
    touched_followers: set[int] = set()
    touched_followees: set[int] = set()
    for start in range(0, len(edges), CHUNK):
        with client.pipeline(transaction=False) as pipe:
            for offset, (follower, followee) in enumerate(edges[start : start + CHUNK]):
                score = base + (start + offset) * 1e-6
                pipe.zadd(keys.following(follower), {str(followee): score})
                pipe.zadd(keys.followers(followee), {str(follower): score})
                touched_followers.add(follower)
                touched_followees.add(followee)
            pipe.execute()
    _recount(ctx, touched_followers, keys.following, "following")
    _recount(ctx, touched_followees, keys.followers, "followers")


def _recount(ctx: Context, uids: set[int], key, field: str) -> None:
    client = ctx.redis
    ordered = sorted(uids)
    for start in range(0, len(ordered), CHUNK):
        chunk = ordered[start : start + CHUNK]
        with client.pipeline(transaction=False) as pipe:
            for uid in chunk:
                pipe.zcard(key(uid))
            sizes = pipe.execute()
        with client.pipeline(transaction=False) as pipe:
            for uid, size in zip(chunk, sizes, strict=True):
                pipe.hset(keys.user(uid), field, size)
            pipe.execute()


def power_law_edges(ctx: Context, uids: list[int], mean_following: int) -> list[tuple[int, int]]:
    """Every user follows the first user (the celebrity) and about ``mean_following`` others, chosen with a
    Zipf-like preference for low ranks, as in real networks."""
    rng = random.Random(ctx.seed)
    star = uids[0]
    # The cumulative weights once: random.choices(weights=...) rebuilds them on every call, O(users) each, which
    # made a 100,000-user graph take minutes. The same draws either way.
    cumulative = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(uids))))
    edges = [(uid, star) for uid in uids[1:]]
    for uid in uids:
        count = max(1, int(rng.expovariate(1.0 / mean_following)))
        for other in set(rng.choices(uids, cum_weights=cumulative, k=count)):
            if other not in (uid, star):
                edges.append((uid, other))
    return edges


def check_counters(ctx: Context, uids: list[int]) -> None:
    """Fail loudly if bulk set-up left counters that disagree with the sets (the services' invariant)."""
    client = ctx.redis
    sample = uids[:: max(1, len(uids) // 200)]
    with client.pipeline(transaction=False) as pipe:
        for uid in sample:
            pipe.hmget(keys.user(uid), "followers", "following")
            pipe.zcard(keys.followers(uid))
            pipe.zcard(keys.following(uid))
        replies = pipe.execute()
    for i in range(0, len(replies), 3):
        (followers, following), real_followers, real_following = replies[i : i + 3]
        if (int(followers), int(following)) != (real_followers, real_following):
            raise AssertionError(f"bench set-up broke the counters of user {sample[i // 3]}")

"""The book's chapter-8 algorithms as printed: a Python 3 / redis-py port of "Redis in Action" listings 8.1-8.8,
8.13 and 8.14, for benchmarks to compare against. Not product code.

The algorithms are kept faithful to the book, *including* its known defects (BOOK_DEFECTS below, and DESIGN.md's
list); only what cannot work on Python 3 / redis-py 5 is adapted:

  * the connection is created with decode_responses=True, otherwise
    `conn.hget(key, 'uid') != str(uid)` in delete_status is always True
    (bytes vs str) and deletion never succeeds;
  * zadd(key, member, score) / zadd(key, **{member: score}) -> zadd(key, mapping);
  * hmset(key, dict) -> hset(key, mapping=dict) (hmset is deprecated);
  * filter(None, ...) -> list (Python 3 filter is lazy);
  * execute_later(conn, 'default', 'syndicate_status', [conn, uid, post, start])
    cannot JSON-encode a connection object; the queued task carries
    [uid, post, start] and the worker supplies its own connection.
  * acquire_lock_with_timeout / release_lock / execute_later come from
    chapter 6 of the book; they are re-implemented here with the same
    semantics (SETNX + EXPIRE lock, WATCH/MULTI release, RPUSH onto a
    'queue:<name>' LIST).

Deferred syndication modes (module global DEFERRED_MODE, or set_deferred_mode):
  'queue' (default) -- execute_later RPUSHes a JSON task onto queue:default;
                       run_worker() (a separate process) BLPOPs and runs it.
  'sync'            -- the deferred pass is run immediately, in the caller,
                       so post_status returns only after every follower's
                       home timeline has been updated.

Use it on its own Redis database: it writes the book's key names (user:<id>, home:<id>, ...).
"""

import json
import math
import time
import uuid

import redis

HOME_TIMELINE_SIZE = 1000
POSTS_PER_PASS = 1000

DEFERRED_MODE = "queue"  # or 'sync'
_TASKS = {}


def set_deferred_mode(mode):
    global DEFERRED_MODE
    if mode not in ("queue", "sync"):
        raise ValueError(mode)
    DEFERRED_MODE = mode


def connect(url="redis://127.0.0.1:6390/0"):
    # decode_responses=True is required for the book's str comparisons.
    return redis.Redis.from_url(url, decode_responses=True)


# ---------------------------------------------------------------------------
# Chapter 6 helpers (semantics as in the book: sections 6.2.3-6.2.5, 6.4.2)
# ---------------------------------------------------------------------------


def acquire_lock_with_timeout(conn, lockname, acquire_timeout=10, lock_timeout=10):
    identifier = str(uuid.uuid4())
    lockname = "lock:" + lockname
    lock_timeout = int(math.ceil(lock_timeout))
    end = time.time() + acquire_timeout
    while time.time() < end:
        if conn.setnx(lockname, identifier):  # book: SETNX then EXPIRE
            conn.expire(lockname, lock_timeout)  # (two round trips, not atomic)
            return identifier
        # book: `elif not conn.ttl(lockname)`; in redis-py 3+ a missing TTL is -1
        # (truthy), so the literal port would never repair a lock without expiry.
        elif conn.ttl(lockname) == -1:
            conn.expire(lockname, lock_timeout)
        time.sleep(0.001)
    return False


def release_lock(conn, lockname, identifier):
    pipe = conn.pipeline(True)
    lockname = "lock:" + lockname
    while True:
        try:
            pipe.watch(lockname)
            if pipe.get(lockname) == identifier:
                pipe.multi()
                pipe.delete(lockname)
                pipe.execute()
                return True
            pipe.unwatch()
            break
        except redis.exceptions.WatchError:
            pass
    return False


def execute_later(conn, queue, name, args, delay=0):
    identifier = str(uuid.uuid4())
    if DEFERRED_MODE == "sync":
        _TASKS[name](conn, *args)
        return identifier
    item = json.dumps([identifier, queue, name, args])
    if delay > 0:
        conn.zadd("delayed:", {item: time.time() + delay})
    else:
        conn.rpush("queue:" + queue, item)
    return identifier


def run_worker(url, queues=("default",), stop_after_idle=None, stop_flag=None):
    """Simple worker for the 'queue' mode: BLPOP tasks and run them.

    stop_flag: optional multiprocessing.Event; the worker exits when it is set.
    Returns the number of tasks executed.
    """
    conn = connect(url)
    keys = ["queue:" + q for q in queues]
    done = 0
    idle_since = time.time()
    while True:
        if stop_flag is not None and stop_flag.is_set():
            break
        item = conn.blpop(keys, timeout=1)
        if not item:
            if stop_after_idle is not None and time.time() - idle_since > stop_after_idle:
                break
            continue
        identifier, queue, name, args = json.loads(item[1])
        fn = _TASKS.get(name)
        if fn is None:
            continue
        fn(conn, *args)
        done += 1
        idle_since = time.time()
    return done


# ---------------------------------------------------------------------------
# Listing 8.1
# ---------------------------------------------------------------------------


def create_user(conn, login, name):
    llogin = login.lower()
    lock = acquire_lock_with_timeout(conn, "user:" + llogin, 1)
    if not lock:
        return None
    if conn.hget("users:", llogin):
        return None  # book defect: lock is not released here
    id = conn.incr("user:id:")
    pipeline = conn.pipeline(True)
    pipeline.hset("users:", llogin, id)
    pipeline.hset(
        "user:%s" % id,
        mapping={
            "login": login,
            "id": id,
            "name": name,
            "followers": 0,
            "following": 0,
            "posts": 0,
            "signup": time.time(),
        },
    )
    pipeline.execute()
    release_lock(conn, "user:" + llogin, lock)
    return id


# ---------------------------------------------------------------------------
# Listings 8.2 + 8.13 (create_status with the streaming PUBLISH line)
# ---------------------------------------------------------------------------


def create_status(conn, uid, message, **data):
    pipeline = conn.pipeline(True)
    pipeline.hget("user:%s" % uid, "login")
    pipeline.incr("status:id:")
    login, id = pipeline.execute()
    if not login:
        return None
    data.update(
        {
            "message": message,
            "posted": time.time(),
            "id": id,
            "uid": uid,
            "login": login,
        }
    )
    pipeline.hset("status:%s" % id, mapping=data)
    pipeline.hincrby("user:%s" % uid, "posts")
    pipeline.publish("streaming:status:", json.dumps(data))
    pipeline.execute()
    return id


# ---------------------------------------------------------------------------
# Listing 8.3
# ---------------------------------------------------------------------------


def get_status_messages(conn, uid, timeline="home:", page=1, count=30):
    statuses = conn.zrevrange("%s%s" % (timeline, uid), (page - 1) * count, page * count - 1)
    pipeline = conn.pipeline(True)
    for id in statuses:
        pipeline.hgetall("status:%s" % id)
    # deleted statuses come back as {} and are filtered out (zombie IDs remain)
    return [s for s in pipeline.execute() if s]


# ---------------------------------------------------------------------------
# Listing 8.4
# ---------------------------------------------------------------------------


def follow_user(conn, uid, other_uid):
    fkey1 = "following:%s" % uid
    fkey2 = "followers:%s" % other_uid
    if conn.zscore(fkey1, other_uid):
        return None
    now = time.time()
    pipeline = conn.pipeline(True)
    pipeline.zadd(fkey1, {other_uid: now})
    pipeline.zadd(fkey2, {uid: now})
    pipeline.zcard(fkey1)
    pipeline.zcard(fkey2)
    pipeline.zrevrange("profile:%s" % other_uid, 0, HOME_TIMELINE_SIZE - 1, withscores=True)
    following, followers, status_and_score = pipeline.execute()[-3:]
    pipeline.hset("user:%s" % uid, "following", following)
    pipeline.hset("user:%s" % other_uid, "followers", followers)
    if status_and_score:
        pipeline.zadd("home:%s" % uid, dict(status_and_score))
    pipeline.zremrangebyrank("home:%s" % uid, 0, -HOME_TIMELINE_SIZE - 1)
    pipeline.execute()
    return True


# ---------------------------------------------------------------------------
# Listing 8.5
# ---------------------------------------------------------------------------


def unfollow_user(conn, uid, other_uid):
    fkey1 = "following:%s" % uid
    fkey2 = "followers:%s" % other_uid
    if not conn.zscore(fkey1, other_uid):
        return None
    pipeline = conn.pipeline(True)
    pipeline.zrem(fkey1, other_uid)
    pipeline.zrem(fkey2, uid)
    pipeline.zcard(fkey1)
    pipeline.zcard(fkey2)
    pipeline.zrevrange("profile:%s" % other_uid, 0, HOME_TIMELINE_SIZE - 1)
    following, followers, statuses = pipeline.execute()[-3:]
    pipeline.hset("user:%s" % uid, "following", following)
    pipeline.hset("user:%s" % other_uid, "followers", followers)
    if statuses:
        pipeline.zrem("home:%s" % uid, *statuses)
    pipeline.execute()
    return True


# ---------------------------------------------------------------------------
# Listing 8.6
# ---------------------------------------------------------------------------


def post_status(conn, uid, message, **data):
    id = create_status(conn, uid, message, **data)
    if not id:
        return None
    posted = conn.hget("status:%s" % id, "posted")
    if not posted:
        return None
    post = {str(id): float(posted)}
    conn.zadd("profile:%s" % uid, post)
    syndicate_status(conn, uid, post)
    return id


# ---------------------------------------------------------------------------
# Listing 8.7
# ---------------------------------------------------------------------------


def syndicate_status(conn, uid, post, start=0):
    followers = conn.zrangebyscore("followers:%s" % uid, start, "inf", start=0, num=POSTS_PER_PASS, withscores=True)
    pipeline = conn.pipeline(False)
    for follower, start in followers:
        pipeline.zadd("home:%s" % follower, post)
        pipeline.zremrangebyrank("home:%s" % follower, 0, -HOME_TIMELINE_SIZE - 1)
    pipeline.execute()
    if len(followers) >= POSTS_PER_PASS:
        # book passes [conn, uid, post, start]; a connection is not JSON-serialisable
        execute_later(conn, "default", "syndicate_status", [uid, post, start])


_TASKS["syndicate_status"] = syndicate_status


# ---------------------------------------------------------------------------
# Listings 8.8 + 8.14 (delete_status with the streaming PUBLISH)
# ---------------------------------------------------------------------------


def delete_status(conn, uid, status_id):
    key = "status:%s" % status_id
    lock = acquire_lock_with_timeout(conn, key, 1)
    if not lock:
        return None
    if conn.hget(key, "uid") != str(uid):
        return None  # book defect: lock is not released here
    pipeline = conn.pipeline(True)
    status = conn.hgetall(key)
    status["deleted"] = True
    pipeline.publish("streaming:status:", json.dumps(status))
    pipeline.delete(key)
    pipeline.zrem("profile:%s" % uid, status_id)
    pipeline.zrem("home:%s" % uid, status_id)
    pipeline.hincrby("user:%s" % uid, "posts", -1)
    pipeline.execute()
    release_lock(conn, key, lock)
    return True


BOOK_DEFECTS = """
Kept on purpose, so a benchmark measures the book as printed: a lock around user creation and status deletion
(a lost lock is never released early); follow_user checks before its transaction, so racing follows double-count;
syndicate_status pages followers by score and loops or skips when follow times tie; a deleted status stays in
followers' home timelines until read around.
"""

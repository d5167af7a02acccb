"""Helpers for the timelines tests: read what Redis holds and drain the queue with a real worker."""

from __future__ import annotations

import subprocess
import sys
import time

from django.conf import settings

from socialsite.redis_client import get_redis
from timelines import keys


def home_timeline_of(uid: int) -> list[int]:
    """Every status id stored in ``uid``'s home timeline, newest first, deleted ones included."""
    return [int(member) for member in get_redis().zrevrange(keys.home_timeline(uid), 0, -1)]


def homes_holding(uids: list[int], status_id: int) -> int:
    """How many of ``uids`` have ``status_id`` in their home timeline."""
    client = get_redis()
    with client.pipeline(transaction=False) as pipe:
        for uid in uids:
            pipe.zscore(keys.home_timeline(uid), status_id)
        return sum(score is not None for score in pipe.execute())


def run_worker_burst(timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Drain the job queue with a real worker process (``manage.py rqworker --burst``)."""
    result = subprocess.run(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "rqworker", "--burst", "default"],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=settings.BASE_DIR,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result


def next_message(pubsub, timeout: float = 5.0) -> dict | None:
    """The next published message on a redis-py PubSub, skipping subscribe confirmations."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = pubsub.get_message(ignore_subscribe_messages=True, timeout=max(0.01, deadline - time.monotonic()))
        if message is not None:
            return message
    return None

"""Helpers for the timelines tests: read what Redis holds, drain the queue with a real worker, start and kill -9
real worker processes, and count the Redis round trips of the code under test."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from redis.connection import AbstractConnection

from socialsite import redis_client
from socialsite.redis_client import get_redis
from socialsite.testing import WAIT_SECONDS
from timelines import keys, queue


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


def next_message(pubsub, timeout: float = WAIT_SECONDS) -> dict | None:
    """The next published message on a redis-py PubSub, skipping subscribe confirmations."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = pubsub.get_message(ignore_subscribe_messages=True, timeout=max(0.01, deadline - time.monotonic()))
        if message is not None:
            return message
    return None


def start_worker() -> subprocess.Popen[bytes]:
    """A worker as the run command starts it (``rqworker --with-scheduler``), in its own process group. Its
    heartbeat is 2 s instead of 5 (the one worker setting), so a killed worker's job comes back in about 10 s."""
    return subprocess.Popen(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "rqworker", "--with-scheduler", "default"],
        cwd=settings.BASE_DIR,
        env={**os.environ, "SOCIALSITE_WORKER_HEARTBEAT_SECONDS": "2"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (RQ's work-horse calls setsid, so a process group does not cover it)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, queue = [], [pid]
    while queue:
        for child in children.get(queue.pop(), []):
            found.append(child)
            queue.append(child)
    return found


def kill_worker(process: subprocess.Popen[bytes]) -> None:
    """kill -9 a worker and everything it started (its work-horse and scheduler)."""
    for pid in [process.pid, *descendants(process.pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    process.wait(timeout=10)


def until_redis_answers() -> None:
    """Return once every server of the social data answers again: a PING waits out a ``CLIENT PAUSE``."""
    for server in redis_client.primaries():
        server.ping()


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        kill_worker(process)


def wait_until(predicate, timeout: float, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()


def job_status(job_id: str) -> str | None:
    """The RQ status of the job ``timelines.queue`` stored under ``job_id`` (None when there is none)."""
    job = queue.get_job(job_id)
    return None if job is None else job.get_status(refresh=True)


def retries_left(job_id: str) -> int | None:
    """How many retries the job under ``job_id`` has left (None when there is none)."""
    job = queue.get_job(job_id)
    return None if job is None else job.retries_left


def commands_processed() -> int:
    """Commands every server of the social data has processed so far."""
    return sum(int(server.info("stats")["total_commands_processed"]) for server in redis_client.primaries())


@contextmanager
def redis_traffic() -> Iterator[dict[str, int]]:
    """Counts what the code under test sends to Redis: round trips (each write of one or more commands to a
    connection, which then waits for the replies) as seen by the client, and commands as counted by the server."""
    counts = {"round_trips": 0, "commands": 0}
    original = AbstractConnection.send_packed_command

    def counting(self: AbstractConnection, command: object, check_health: bool = True) -> None:
        counts["round_trips"] += 1
        original(self, command, check_health)

    before = commands_processed()
    AbstractConnection.send_packed_command = counting  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        AbstractConnection.send_packed_command = original  # type: ignore[method-assign]
    # Minus the INFO that reads the counter; the earlier INFO was counted before `before` was taken.
    counts["commands"] = commands_processed() - before - len(redis_client.primaries())


def settled_stream(pubsub) -> None:
    """Subscribe ``pubsub`` to the event channel once every event published before has gone by, dropping those.
    On a cluster a PUBLISH crosses the cluster bus from the node that ran it, so an earlier test's events (its uids
    are this test's again) can still arrive: a marker published on every primary, on a channel of this call's own,
    comes after everything that node published before (one link, in order)."""
    marker = f"settle:{uuid.uuid4().hex}"
    pubsub.subscribe(keys.STREAM_CHANNEL, marker)
    servers = redis_client.primaries()
    for server in servers:
        server.publish(marker, "1")
    pending = len(servers)
    while pending:
        message = next_message(pubsub)
        assert message is not None, "the settle marker never came back"
        if message["channel"] == marker:
            pending -= 1
    pubsub.unsubscribe(marker)

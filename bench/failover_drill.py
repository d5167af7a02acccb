"""A failover drill (issue 23): a Redis Cluster with a replica per primary, a primary killed with ``kill -9`` while
posts, follows and home reads flow through socialsite's services, and what it cost.

``drill(directory, wait_replicas=...)`` starts the cluster (``embedded_cluster.start(replicas=1)``, a 1 s ``cluster-
node-timeout``), points this process's site at it (every node in ``REDIS_CLUSTER_URL``, the primary to be killed
first, so that discovery and the stream subscriber start on it), makes an author with followers, and yields a
``Drill``. ``Load`` runs posts by the author, a follow or unfollow and a home read in turn on a thread and records
each call's time and outcome. ``Drill.kill()`` sends SIGKILL to the primary serving the author's keys
(``kill_with_lagging_replica`` first makes its replica fall behind); ``window()`` is the time from the kill to the
last error; ``lost()`` counts acknowledged posts whose status hash or profile entry is gone. Used by
``timelines/tests/test_failover.py`` and ``python -m bench --only failover``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis
from django.conf import settings

from socialsite import embedded_cluster, redis_client
from timelines import keys, selectors, services, store

NODE_TIMEOUT_MS = 1000
FOLLOWERS = 5
# Calls made while the replica lags, before the kill (``kill_with_lagging_replica``).
LAG_CALLS = 15


@dataclass
class Call:
    at: float  # time.monotonic() when the call ended
    op: str
    ms: float
    error: str = ""
    status_id: int | None = None


@dataclass
class Load(threading.Thread):
    """Posts by ``author``, a follow or unfollow of ``other`` by ``reader`` and ``reader``'s home, in turn, until
    ``stop``; a failed call is recorded and the loop goes on at once (a small pause after an error only, so that a
    dead server is not hammered)."""

    author: int
    reader: int
    other: int
    calls: list[Call] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, daemon=True, name="failover-load")

    def __hash__(self) -> int:
        return id(self)

    def _call(self, op: str, operation) -> None:  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            result = operation()
        except Exception as error:  # every kind is counted; the test says which are allowed when
            self.calls.append(Call(time.monotonic(), op, (time.perf_counter() - start) * 1000, type(error).__name__))
            self.stopping.wait(0.02)
            return
        status_id = int(result) if op == "post" else None
        self.calls.append(Call(time.monotonic(), op, (time.perf_counter() - start) * 1000, status_id=status_id))

    def run(self) -> None:
        turn = 0
        while not self.stopping.is_set():
            turn += 1
            message = f"drill post {turn}"
            self._call("post", lambda: services.post_status(uid=self.author, message=message))  # noqa: B023
            if turn % 2:
                self._call("follow", lambda: services.follow_user(uid=self.reader, other_uid=self.other))
            else:
                self._call("follow", lambda: services.unfollow_user(uid=self.reader, other_uid=self.other))
            self._call("read", lambda: selectors.get_status_messages(uid=self.reader, count=20))

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=30)

    def acknowledged(self) -> list[Call]:
        return [call for call in self.calls if call.op == "post" and not call.error]

    def succeeded_since(self, moment: float) -> int:
        return sum(1 for call in self.calls[:] if call.at > moment and not call.error)


@dataclass
class Drill:
    cluster: embedded_cluster.Cluster
    author: int
    reader: int
    other: int
    followers: list[int]
    victim: int  # the port of the primary killed
    killed_at: float | None = None

    def load(self) -> Load:
        return Load(self.author, self.reader, self.other)

    def kill(self) -> None:
        """kill -9 the primary that serves the author's keys."""
        os.kill(self.cluster.pid(self.victim), signal.SIGKILL)
        self.killed_at = time.monotonic()

    def kill_with_lagging_replica(self, load: Load, calls: int = LAG_CALLS) -> None:
        """kill -9 the primary while its replica lags: the replica is stopped (SIGSTOP) and its link cut, so
        what the primary acknowledges meanwhile never reaches it; after ``calls`` more calls of ``load`` the primary
        is killed and the replica continued (SIGCONT), to be promoted without those writes. On localhost a replica
        never lags by itself; a loaded network, a slow disk or a full output buffer make it lag in production."""
        replica = self.cluster.pid(self.cluster.replica_of(self.victim))
        os.kill(replica, signal.SIGSTOP)
        try:
            primary = redis.Redis(host="127.0.0.1", port=self.victim, socket_timeout=2)
            try:
                primary.client_kill_filter(_type="slave")  # Redis 6.2 knows "slave"
            finally:
                primary.close()
            seen = len(load.calls)
            deadline = time.monotonic() + 10
            while len(load.calls) < seen + calls and time.monotonic() < deadline:
                time.sleep(0.01)
            self.kill()
        finally:
            os.kill(replica, signal.SIGCONT)

    def promoted(self) -> bool:
        """Whether another node serves the author's slot now (the replica was promoted)."""
        with contextlib.suppress(Exception):
            return self.cluster.primary_of(keys.user(self.author)) != self.victim
        return False

    def window(self, load: Load) -> float:
        """Seconds from the kill to the end of the last failed call (0 when none failed)."""
        assert self.killed_at is not None
        failed = [call.at for call in load.calls if call.error and call.at >= self.killed_at]
        return max(failed) - self.killed_at if failed else 0.0

    def lost(self, load: Load) -> list[int]:
        """The acknowledged posts whose status hash, or place on the author's profile, is gone."""
        ids = [call.status_id for call in load.acknowledged()]
        client = redis_client.get_redis()
        found = store.statuses.statuses_exist(ids)  # type: ignore[arg-type]
        on_profile = client.zmscore(keys.profile_timeline(self.author), ids) if ids else []
        return [
            status_id  # type: ignore[misc]
            for status_id, exists, score in zip(ids, found, on_profile, strict=True)
            if not exists or score is None
        ]


def wait_until(predicate, timeout: float, interval: float = 0.1) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``predicate`` became true within ``timeout`` seconds (polled)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


def _urls(cluster: embedded_cluster.Cluster, first: int | None = None) -> str:
    ports = sorted(cluster.ports, key=lambda port: port != first)
    return ",".join(f"redis://127.0.0.1:{port}/0" for port in ports)


@contextlib.contextmanager
def drill(directory: Path, *, wait_replicas: int = 0, wait_timeout_ms: int = 1000) -> Iterator[Drill]:
    """A replicated cluster under ``directory`` with this process's site pointed at it (and child processes
    started meanwhile, through ``REDIS_CLUSTER_URL``), an author with ``FOLLOWERS`` followers, a reader and
    another account; everything put back afterwards."""
    saved = {
        name: getattr(settings, name) for name in ("REDIS_CLUSTER_URL", "POST_WAIT_REPLICAS", "POST_WAIT_TIMEOUT_MS")
    }
    saved_env = os.environ.get("REDIS_CLUSTER_URL")
    cluster = embedded_cluster.start(directory, replicas=1, node_timeout_ms=NODE_TIMEOUT_MS)
    try:
        settings.POST_WAIT_REPLICAS, settings.POST_WAIT_TIMEOUT_MS = wait_replicas, wait_timeout_ms
        settings.REDIS_CLUSTER_URL = _urls(cluster)
        redis_client.reset()
        stamp = int(time.time() * 1000) % 10**9
        author = services.create_user(login=f"author{stamp}", name="Author")
        reader = services.create_user(login=f"reader{stamp}", name="Reader")
        other = services.create_user(login=f"other{stamp}", name="Other")
        followers = [services.create_user(login=f"f{i}x{stamp}", name=f"F{i}") for i in range(FOLLOWERS)]
        for uid in [reader, *followers]:
            services.follow_user(uid=uid, other_uid=author)
        victim = cluster.primary_of(keys.user(author))
        settings.REDIS_CLUSTER_URL = os.environ["REDIS_CLUSTER_URL"] = _urls(cluster, first=victim)
        redis_client.reset()
        yield Drill(cluster, author, reader, other, followers, victim)
    finally:
        redis_client.reset()
        for name, value in saved.items():
            setattr(settings, name, value)
        if saved_env is None:
            os.environ.pop("REDIS_CLUSTER_URL", None)
        else:
            os.environ["REDIS_CLUSTER_URL"] = saved_env
        cluster.stop()

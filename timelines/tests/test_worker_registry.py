"""RQ's registry of workers counts only processes that run: a worker killed with SIGKILL (or dead of a lost Redis)
is unregistered by the next worker that starts on the same host, instead of being counted until its key expires."""

from __future__ import annotations

import subprocess
import sys

import rq

from socialsite.redis_client import get_job_redis
from timelines import queue, worker


def _registered_pids() -> set[int]:
    return {other.pid for other in rq.Worker.all(connection=get_job_redis(), serializer=queue.SERIALIZER)}


def _dead_pid() -> int:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    return gone.pid


def test_a_starting_worker_unregisters_dead_workers_of_its_host_and_keeps_live_ones():
    connection = get_job_redis()
    dead = worker.Worker(["default"], connection=connection, name="dead-one")
    dead.pid = _dead_pid()
    rq.Worker.register_birth(dead)  # as it was when it ran: RQ's own registration, no clean-up
    alive = worker.Worker(["default"], connection=connection, name="alive-one")
    alive.pid = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]).pid
    rq.Worker.register_birth(alive)
    try:
        assert {dead.pid, alive.pid} <= _registered_pids()
        starting = worker.Worker(["default"], connection=connection, name="starting-one")
        starting.register_birth()
        registered = _registered_pids()
        assert dead.pid not in registered
        assert {alive.pid, starting.pid} <= registered
    finally:
        subprocess.run(["kill", str(alive.pid)], check=False)
        for name in ("alive-one", "starting-one"):
            for other in rq.Worker.all(connection=connection, serializer=queue.SERIALIZER):
                if other.name == name:
                    other.register_death()

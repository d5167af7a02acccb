"""Keeping ``manage.py serve``'s processes running: every process it starts is watched and restarted when it dies.

``serve`` starts the embedded Redis, the web processes and the RQ workers, and a ``Supervisor`` looks at each of
them every ``CHECK_INTERVAL_SECONDS``. One that died is restarted after a delay that grows while it keeps dying
(``Backoff``: 0.5 s, doubling up to 30 s, back to 0.5 s once it has run for a minute), so a process that fails as
it starts (a bad setting, a full disk) is retried at a pace that neither spins the machine nor floods the log,
and comes back by itself once the cause is gone. Each death is logged with its cause: the exit code or the
signal of a child process.

The embedded Redis is a daemon, not a child of ``serve`` (other processes may have started it first, and it
outlives them all), so its exit status cannot be read: it counts as dead when the pid in its pid file no longer
runs, and is restarted with ``embedded_redis.ensure_running``, under the same lock as every other start. Before,
a Redis killed with SIGKILL stayed down (pages answered 503, workers retried) until someone started it by hand.

This module knows nothing of daphne or RQ: ``serve`` hands it ``ChildProcess`` objects that start them.
"""

from __future__ import annotations

import signal
import subprocess
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from socialsite import embedded_redis

CHECK_INTERVAL_SECONDS = 0.5
INITIAL_DELAY_SECONDS = 0.5
MAX_DELAY_SECONDS = 30.0
# A process that has run this long is taken to have started well: its next death restarts it after the
# initial delay again.
STABLE_SECONDS = 60.0
REDIS_STOP_SECONDS = 5.0


class Backoff:
    """The delays before the restarts of one process: ``initial``, doubled after each restart up to ``maximum``,
    and ``initial`` again after a run of ``stable`` seconds or more."""

    def __init__(
        self,
        initial: float = INITIAL_DELAY_SECONDS,
        maximum: float = MAX_DELAY_SECONDS,
        stable: float = STABLE_SECONDS,
    ) -> None:
        self.initial = initial
        self.maximum = maximum
        self.stable = stable
        self._next = initial

    def delay(self, ran_for: float) -> float:
        """The delay before restarting a process that died after running ``ran_for`` seconds."""
        if ran_for >= self.stable:
            self._next = self.initial
        delay = self._next
        self._next = min(self._next * 2, self.maximum)
        return delay


class Service(ABC):
    """One process ``serve`` keeps running."""

    name: str

    @abstractmethod
    def start(self) -> None:
        """Start it (raises when it cannot be started)."""

    @property
    @abstractmethod
    def pid(self) -> int | None: ...

    @abstractmethod
    def exit_reason(self) -> str | None:
        """None while it runs; once it has died, how, in words ("was killed by signal SIGKILL")."""

    @abstractmethod
    def request_stop(self) -> None:
        """Ask it to stop, without waiting (``wait_stopped`` waits); all are asked before any is waited on."""

    @abstractmethod
    def wait_stopped(self, deadline: float) -> None:
        """Stop it for good, by ``deadline`` (``time.monotonic()``), forcing it if need be."""


def describe_exit(returncode: int) -> str:
    """A child's exit status in words, as the log says it."""
    if returncode < 0:
        try:
            return f"was killed by signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with code {returncode}"


class ChildProcess(Service):
    """A child process started by ``spawn``; SIGTERM stops it, SIGKILL if it has not stopped by the deadline."""

    def __init__(self, name: str, spawn: Callable[[], subprocess.Popen[bytes]]) -> None:
        self.name = name
        self._spawn = spawn
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = self._spawn()

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def exit_reason(self) -> str | None:
        if self.process is None or self.process.poll() is None:
            return None
        return describe_exit(self.process.returncode)

    def request_stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)

    def wait_stopped(self, deadline: float) -> None:
        if self.process is None:
            return
        self.request_stop()
        try:
            self.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class EmbeddedRedis(Service):
    """The embedded Redis kept in ``directory``: a daemon, watched through its pid file."""

    name = "embedded Redis"

    def __init__(
        self, directory: Path, persistence: embedded_redis.Persistence = embedded_redis.DEFAULT_PERSISTENCE
    ) -> None:
        self.directory = directory
        self.persistence = persistence
        self._pid: int | None = None

    def start(self) -> None:
        embedded_redis.ensure_running(self.directory, self.persistence)
        self._pid = embedded_redis.pid(self.directory)

    @property
    def pid(self) -> int | None:
        return self._pid

    def exit_reason(self) -> str | None:
        if self._pid is not None and embedded_redis.process_alive(self._pid):
            return None
        # A daemon is not this process's child: its exit status is not ours to read.
        return f"is no longer running (exit status unknown; see {self.directory / 'redis.log'})"

    def request_stop(self) -> None:
        pass  # stopped last, in ``wait_stopped``, once the processes using it have stopped

    def wait_stopped(self, deadline: float) -> None:
        # Last to stop, after the processes using it: a few seconds of its own to write its append-only file.
        embedded_redis.stop(self.directory, timeout=max(REDIS_STOP_SECONDS, deadline - time.monotonic()))


@dataclass
class _Watched:
    service: Service
    backoff: Backoff
    started_at: float = 0.0
    restart_at: float | None = None  # set while it is dead and waits for its restart


class Supervisor:
    """Starts ``services`` in order, restarts any that dies (``check``), and stops them in reverse order."""

    def __init__(
        self, services: list[Service], log: Callable[[str], None], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._watched = [_Watched(service, Backoff()) for service in services]
        self._log = log
        self._clock = clock

    def start(self) -> None:
        for watched in self._watched:
            watched.service.start()
            watched.started_at = self._clock()

    def check(self) -> None:
        """Notice the services that died since the last check and restart those whose delay has passed."""
        for watched in self._watched:
            service = watched.service
            now = self._clock()
            if watched.restart_at is None:
                reason = service.exit_reason()
                if reason is None:
                    continue
                delay = watched.backoff.delay(now - watched.started_at)
                self._log(f"The {service.name} (pid {service.pid}) {reason}; restarting it in {delay:g} s.")
                watched.restart_at = now + delay
            if now < watched.restart_at:
                continue
            try:
                service.start()
            except Exception as error:  # the next check tries again, later
                delay = watched.backoff.delay(0.0)
                self._log(f"The {service.name} could not be restarted ({error}); trying again in {delay:g} s.")
                watched.restart_at = now + delay
                continue
            watched.started_at = self._clock()
            watched.restart_at = None
            self._log(f"Restarted the {service.name} (pid {service.pid}).")

    def stop(self, timeout: float) -> None:
        """Stop every service, the last started first, all of them within ``timeout`` seconds (then forced)."""
        stopping = [watched.service for watched in reversed(self._watched)]
        for service in stopping:
            service.request_stop()
        deadline = time.monotonic() + timeout
        for service in stopping:
            service.wait_stopped(deadline)

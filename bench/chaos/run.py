"""One chaos run: a ``serve`` of its own under load, its web process, an RQ worker and its Redis each killed with
SIGKILL in turn, then the checks.

After each kill the run waits until ``serve`` has replaced the process, then posts a probe status (retrying
until the site acknowledges one) and waits until every streaming client has received it: the kill's recovery
time runs from the SIGKILL to that moment, when a post made now reaches everyone live again. Then the load goes
on alone for ``gap`` seconds before the next kill. At the end the load stops, a last probe must reach every
client, the job queue must empty, and then every acknowledged write is looked for (``checks``), the bulk
followers' homes are checked for the deliveries the jobs made (``deliveries``), and ``audit_timelines`` runs.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis
from django.conf import settings
from rq import Queue
from rq.registry import FailedJobRegistry, StartedJobRegistry
from rq.serializers import JSONSerializer

from bench.chaos import checks, site
from bench.chaos.load import Load, Person, request
from bench.chaos.streams import StreamClients

KILLS = (site.WEB, site.WORKER, site.REDIS)
RECOVERY_TIMEOUT_SECONDS = 60.0
DRAIN_TIMEOUT_SECONDS = 60.0
PROBE_REPOST_SECONDS = 2.0
# audit_timelines reads every user: about a minute of CPU for 1,500 users on a busy machine.
AUDIT_TIMEOUT_SECONDS = 600.0


@dataclass(frozen=True)
class Kill:
    kind: str
    pid: int
    replaced_seconds: float | None  # SIGKILL -> serve's replacement running (Redis: answering)
    recovered_seconds: float | None  # SIGKILL -> a post made then reached every streaming client
    errors: int  # failed requests from the SIGKILL to the recovery


@dataclass
class Result:
    appendfsync: str
    seconds: float = 0.0
    requests: int = 0
    succeeded: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    stream_errors: Counter[str] = field(default_factory=Counter)
    acknowledged: Counter[str] = field(default_factory=Counter)
    lost: checks.Lost = field(default_factory=checks.Lost)
    lost_before_redis_kill_seconds: float | None = None  # how long before Redis's SIGKILL the lost writes came
    streams: int = 0
    reconnects: int = 0
    final_probe_received: int = 0
    kills: list[Kill] = field(default_factory=list)
    fans: int = 0
    deliveries_missing: int = 0
    queue_drained: bool = False
    failed_jobs: int = 0
    audit: str = ""
    restarts_logged: list[str] = field(default_factory=list)

    @property
    def audit_clean(self) -> bool:
        return "No problems found." in self.audit

    @property
    def full_recovery_seconds(self) -> float | None:
        times = [kill.recovered_seconds for kill in self.kills]
        return None if not times or None in times else max(times)  # type: ignore[type-var]


def _probe(base: str, author: Person, streams: StreamClients, label: str, deadline: float) -> int | None:
    """Post probes until one has reached every streaming client; its id, or None if none had by ``deadline``.

    A probe is posted again every ``PROBE_REPOST_SECONDS`` until one arrives: pub/sub delivers at most once, so a
    post published while a web process's subscriber was reconnecting to a restarted Redis never reaches that
    process's streams (a reader of the page would see it; a stream does not replay it)."""
    posted: list[int] = []
    next_post = 0.0
    while time.monotonic() < deadline:
        for status_id in posted:
            if streams.received(status_id) == streams.count:
                return status_id
        if time.monotonic() >= next_post:
            answer = request(
                base,
                "POST",
                "/api/v1/statuses",
                token=author.token,
                form={"status": f"probe {label} {len(posted)}", "visibility": "public"},
            )
            if answer.error is None:
                posted.append(int(answer.body["id"]))
                next_post = time.monotonic() + PROBE_REPOST_SECONDS
            else:
                next_post = time.monotonic() + 0.1
        time.sleep(0.05)
    return None


def _drain(the_site: site.Site, timeout: float) -> tuple[bool, int]:
    """Wait until no job is queued or running on the site's Redis; (drained, jobs in the failed registry)."""
    connection = redis.Redis.from_url(the_site.redis_url)
    try:
        queue = Queue("default", connection=connection, serializer=JSONSerializer)
        started = StartedJobRegistry(queue=queue)
        deadline = time.monotonic() + timeout
        drained = False
        while time.monotonic() < deadline:
            if queue.count == 0 and started.count == 0:
                drained = True
                break
            time.sleep(0.2)
        return drained, FailedJobRegistry(queue=queue).count
    finally:
        connection.close()


@contextlib.contextmanager
def _killed_at_exit(process: subprocess.Popen[str]) -> Iterator[None]:
    try:
        yield
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def chaos(
    var_dir: Path,
    *,
    appendfsync: str,
    users: int = 12,
    fans: int = 0,
    threads: int = 4,
    stream_clients: int = 5,
    web_processes: int = 1,
    workers: int = 1,
    warm_seconds: float = 2.0,
    gap_seconds: float = 2.0,
    static_from: dict[str, str] | None = None,
    log: Callable[[str], object] | None = None,
) -> Result:
    """The whole run; see the module's docstring. ``log``: told what happens, as it happens."""
    say = log or (lambda message: None)
    result = Result(appendfsync=appendfsync)
    started = time.monotonic()
    # The accounts are made (the database migrated first) while serve starts: the same var directory, and the
    # embedded Redis started under its lock by whichever comes first.
    making = subprocess.Popen(
        [sys.executable, "-m", "bench.chaos.people", "--users", str(users), "--followers", str(fans)],
        env=site.environment(var_dir, appendfsync=appendfsync),
        cwd=settings.BASE_DIR,
        stdout=subprocess.PIPE,
        text=True,
    )
    with (
        _killed_at_exit(making),
        site.serve(
            var_dir, appendfsync=appendfsync, web_processes=web_processes, workers=workers, static_from=static_from
        ) as the_site,
    ):
        output, _ = making.communicate(timeout=RECOVERY_TIMEOUT_SECONDS * 2)
        if making.returncode:
            raise RuntimeError(f"bench.chaos.people failed ({making.returncode})")
        people = [Person(int(p["uid"]), str(p["login"]), str(p["token"])) for p in json.loads(output)["people"]]
        say(f"site and people ready in {time.monotonic() - started:.1f} s")
        prober = people[1]
        streams = StreamClients(the_site.url, stream_clients)
        load = Load(the_site.url, people, threads=threads)
        streams.start()
        # Every client holds its stream before the first kill, so each one on the killed process must reconnect.
        deadline = time.monotonic() + RECOVERY_TIMEOUT_SECONDS
        while streams.connected() < stream_clients and time.monotonic() < deadline:
            time.sleep(0.05)
        began = time.monotonic()
        load.start()
        try:
            time.sleep(warm_seconds)
            redis_killed_at = None
            counts = {kind: len(the_site.pids(kind)) for kind in KILLS}
            for kind in KILLS:
                errors_before = sum(load.record.errors.values())
                killed_at = time.monotonic()
                victim = the_site.kill(kind)
                say(f"killed the {kind} (pid {victim})")
                if kind == site.REDIS:
                    redis_killed_at = killed_at
                replaced = site.wait_for_replacement(the_site, kind, victim, counts[kind], RECOVERY_TIMEOUT_SECONDS)
                probe = _probe(the_site.url, prober, streams, f"after {kind}", killed_at + RECOVERY_TIMEOUT_SECONDS)
                recovered = time.monotonic() - killed_at if probe is not None else None
                errors = sum(load.record.errors.values()) - errors_before
                result.kills.append(Kill(kind, victim, replaced, recovered, errors))
                say(f"  replaced after {replaced}, recovered after {recovered}, {errors} errors")
                if kind != KILLS[-1]:
                    time.sleep(gap_seconds)
        except BaseException:
            streams.stop()
            raise
        finally:
            load.stop()
        result.seconds = time.monotonic() - began
        final = _probe(the_site.url, prober, streams, "final", time.monotonic() + RECOVERY_TIMEOUT_SECONDS)
        result.final_probe_received = streams.received(final) if final is not None else 0
        streams.stop()
        record = load.record
        result.requests = record.requests
        result.succeeded = sum(record.succeeded.values())
        result.errors = record.errors
        result.stream_errors = streams.errors
        result.streams, result.reconnects = stream_clients, streams.reconnects
        result.acknowledged = Counter(write.kind for write in record.writes)
        result.queue_drained, result.failed_jobs = _drain(the_site, DRAIN_TIMEOUT_SECONDS)
        say(f"load stopped, final probe and queue drained: {time.monotonic() - started:.1f} s")
        result.lost = checks.verify(the_site.url, people, record)
        say(f"writes verified: {time.monotonic() - started:.1f} s")
        if result.lost.writes and redis_killed_at is not None:
            result.lost_before_redis_kill_seconds = max(redis_killed_at - write.at for write in result.lost.writes)
        if fans:
            celebrity = people[0].uid
            posts = [str(w.target) for w in record.writes if w.uid == celebrity and w.kind in ("post", "reply")]
            skip = [str(person.uid) for person in people]
            found = json.loads(
                the_site.manage(
                    "-m", "bench.chaos.deliveries", "--author", str(celebrity), "--statuses", *posts, "--skip", *skip
                ).stdout
            )
            result.fans, result.deliveries_missing = found["followers"], found["missing"]
        say(f"deliveries checked: {time.monotonic() - started:.1f} s")
        result.audit = the_site.manage("audit_timelines", timeout=AUDIT_TIMEOUT_SECONDS).stdout
        say(f"audited: {time.monotonic() - started:.1f} s")
        result.restarts_logged = [
            line for line in the_site.log().splitlines() if "restarting it" in line or "Restarted the" in line
        ]
    return result

"""The RQ worker class of socialsite (``settings.RQ["WORKER_CLASS"]``).

It runs each job in its own process, as RQ's ``SimpleWorker`` does, instead of forking a work-horse per job:
a fan-out or refill batch takes a few milliseconds, and the fork of a process holding Django cost more than
that (the deferred fan-out of a 100,000-follower post ran 3.6 s with 2 forking workers). Jobs are idempotent
batches of socialsite's own services, so nothing a job leaves in the process (module caches, connections)
can harm the next one. A forking worker's parent renews the job's heartbeat while the horse works; here a
thread does it (``_keep_alive``), so a long job is not mistaken for an abandoned one, and a worker killed in
the middle of a job stops renewing it exactly as a dead horse would.

RQ's defaults notice a worker killed in the middle of a job only after the job's heartbeat expires
(monitoring interval + 60 s) and the next maintenance pass (every 10 minutes, and not while the worker is
blocked waiting for work). This worker heartbeats every few seconds, wakes up at least every
``MAINTENANCE_INTERVAL`` seconds, and runs maintenance that often, so an abandoned job goes back to the queue
(jobs carry ``Retry``) within about half a minute, with only the site's usual workers running.

A worker can also die after taking a job off the queue (BLMOVE into RQ's intermediate queue) but before
marking it started. Nothing but the intermediate queue then remembers the job; RQ requeues it once one
maintenance pass has seen it there and a later pass finds it older than a minute, which with this worker's
interval is 60 to 80 seconds. Here that grace is ``INTERMEDIATE_GRACE_SECONDS``, so such a job is back within
one or two passes (10 to 20 seconds). A live worker keeps a job in that state only for the few milliseconds
between the BLMOVE and the pipeline that registers it as started, and only a job still marked queued is
touched, so the shorter grace cannot take a job from a worker that is running it.

The scheduler a worker forks (``--with-scheduler``) dies with it, even when the worker is killed with SIGKILL
(``Scheduler``, ``socialsite.orphans``).

Jobs are read as JSON only (``timelines.queue.SERIALIZER``), never unpickled; a payload that is not JSON fails
that one job.
"""

from __future__ import annotations

import os
import threading
from datetime import timedelta
from typing import Any

import rq
from django.conf import settings
from rq import worker_registration
from rq.defaults import DEFAULT_LOGGING_DATE_FORMAT, DEFAULT_LOGGING_FORMAT
from rq.executions import Execution
from rq.intermediate_queue import IntermediateQueue
from rq.job import Job, JobStatus
from rq.queue import Queue
from rq.registry import clean_registries
from rq.scheduler import RQScheduler
from rq.utils import now
from rq.worker import WorkerStatus

from socialsite import orphans
from timelines.queue import SERIALIZER, enqueue_media_cleanup

# All four follow one setting (SOCIALSITE_WORKER_HEARTBEAT_SECONDS, 5 s by default, which gives the figures above).
JOB_MONITORING_INTERVAL = max(1, settings.WORKER_HEARTBEAT_SECONDS)
HEARTBEAT_GRACE_SECONDS = 2 * JOB_MONITORING_INTERVAL
MAINTENANCE_INTERVAL = 2 * JOB_MONITORING_INTERVAL
INTERMEDIATE_GRACE_SECONDS = JOB_MONITORING_INTERVAL
# RQ holds its maintenance lock for 899 s; a worker killed during maintenance would stall everyone's
# maintenance that long. A pass takes milliseconds, so a minute is ample and bounds that stall.
MAINTENANCE_LOCK_SECONDS = 60
MAX_RECONNECT_WAIT_SECONDS = 4.0

_DONE = frozenset({JobStatus.FINISHED, JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED})


class PromptIntermediateQueue(IntermediateQueue):
    """RQ's intermediate queue, recovering jobs left there by a dead worker after seconds, not a minute."""

    def should_be_cleaned_up(self, job_id: str) -> bool:
        first_seen = self.get_first_seen(job_id)
        return first_seen is not None and now() - first_seen > timedelta(seconds=INTERMEDIATE_GRACE_SECONDS)

    def cleanup(self, worker: rq.Worker, queue: Queue) -> None:
        for job_id in self.get_job_ids():
            if job_id in queue.started_job_registry:
                continue
            job = queue.fetch_job(job_id)
            if job is None:
                self.remove(job_id)
                continue
            status = job.get_status(refresh=False)
            if status in _DONE:
                # A worker listening on several queues leaves finished jobs here (RQ removes them only for
                # single-queue workers); they must not be failed and run again.
                self.remove(job_id)
                continue
            if status != JobStatus.QUEUED or self.set_first_seen(job_id):
                continue
            if self.should_be_cleaned_up(job_id):
                # Retries the job if it has retries left (all socialsite jobs do), else marks it failed.
                worker.handle_job_failure(job, queue, exc_string="Its worker died after taking it off the queue.")
                self.remove(job_id)
                # A stale first-seen time would make the next pass act at once if this id comes back here.
                self.connection.delete(self.get_first_seen_key(job_id))


class Scheduler(RQScheduler):
    """RQ's scheduler, in the process the worker forks for it, dying with that worker (``socialsite.orphans``):
    RQ's own kept running without a parent after a kill -9 of its worker, until Redis stopped."""

    def start(self) -> Any:
        self._worker_pid = os.getpid()  # read in the child: the pid of the worker that forks it
        return super().start()

    def work(self) -> None:
        # Runs in the forked child. SIGTERM on the worker's death is the signal RQ's worker sends on its own
        # stop: the scheduler releases its lock, so a new worker's scheduler takes over at once.
        orphans.die_with_parent(self._worker_pid)
        super().work()


class Worker(rq.SimpleWorker):
    # RQ doubles its wait between reconnections up to a minute, so a worker could sleep through most of a minute
    # after Redis came back (``serve`` restarts a killed Redis within a second): retry every few seconds instead.
    max_connection_wait_time = MAX_RECONNECT_WAIT_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # JSON whatever the command line says (django-rq's ``--serializer`` defaults to pickle): a worker that
        # unpickled jobs would run any code a payload planted in Redis names.
        kwargs["serializer"] = SERIALIZER
        kwargs.setdefault("job_monitoring_interval", JOB_MONITORING_INTERVAL)
        kwargs.setdefault("maintenance_interval", MAINTENANCE_INTERVAL)
        super().__init__(*args, **kwargs)

    def register_birth(self) -> None:
        super().register_birth()
        self.forget_dead_neighbours()

    def forget_dead_neighbours(self) -> None:
        """Unregister the workers of this host whose process no longer runs. One killed (or dead of a lost Redis)
        stays in RQ's registry until its key expires, minutes later, and would be counted meanwhile; a worker
        that ``serve`` starts in its place removes it."""
        for other in rq.Worker.all(connection=self.connection, serializer=SERIALIZER):
            if other.name != self.name and other.hostname == self.hostname and other.pid and not _running(other.pid):
                other.register_death()

    @property
    def dequeue_timeout(self) -> int:
        # Wake up from the blocking dequeue often enough to run maintenance on time.
        return self.maintenance_interval

    def execute_job(self, job: Job, queue: Queue) -> None:
        # RQ's SimpleWorker.execute_job, with the heartbeat a forking worker's parent would keep.
        execution = self.prepare_execution(job)
        done = threading.Event()
        keeper = threading.Thread(target=self._keep_alive, args=(job, execution, done), daemon=True)
        keeper.start()
        try:
            self.perform_job(job, queue, execution)
        finally:
            done.set()
            keeper.join()
        self.set_state(WorkerStatus.IDLE)

    def _keep_alive(self, job: Job, execution: Execution, done: threading.Event) -> None:
        """Renew the worker's, the job's and the execution's heartbeats every JOB_MONITORING_INTERVAL until
        ``done``: what ``rq.Worker.monitor_work_horse`` does for a forked horse."""
        while not done.wait(self.job_monitoring_interval):
            try:
                self.maintain_heartbeats(job, execution)
            except Exception:  # a missed beat is retried on the next one; the job must not die of it
                self.log.exception("Worker %s: heartbeat of job %s failed", self.name, job.id)

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        # A live worker renews this every JOB_MONITORING_INTERVAL; a dead one's job expires soon after.
        return self.job_monitoring_interval + HEARTBEAT_GRACE_SECONDS

    def _start_scheduler(
        self,
        burst: bool = False,
        logging_level: str | None = "INFO",
        date_format: str = DEFAULT_LOGGING_DATE_FORMAT,
        log_format: str = DEFAULT_LOGGING_FORMAT,
    ) -> None:
        # RQ's BaseWorker._start_scheduler (rq 3.0), with the Scheduler above in place of RQScheduler.
        self.scheduler = Scheduler(
            self.queues,
            connection=self.connection,
            logging_level=logging_level if logging_level is not None else self.log.level,
            date_format=date_format,
            log_format=log_format,
            serializer=self.serializer,
        )
        self.scheduler.acquire_locks()
        if self.scheduler.acquired_locks:
            if burst:
                try:
                    self.scheduler.register_birth()
                    self.scheduler.enqueue_scheduled_jobs()
                finally:
                    self.scheduler.release_locks()
                    self.scheduler.register_death()
            else:
                self.scheduler.start()

    def clean_registries(self) -> None:
        # RQ's BaseWorker.clean_registries (rq 3.0), with a shorter lock and the prompt intermediate queue.
        for queue in self.queues:
            if queue.connection.set(queue.registry_cleaning_key, 1, nx=True, ex=MAINTENANCE_LOCK_SECONDS):
                try:
                    self.log.info("Worker %s: cleaning registries for queue: %s", self.name, queue.name)
                    clean_registries(queue, self._exc_handlers)
                    worker_registration.clean_worker_registry(queue)
                    PromptIntermediateQueue(queue.key, connection=queue.connection).cleanup(self, queue)
                finally:
                    queue.release_maintenance_lock()
        try:
            enqueue_media_cleanup()  # once an hour whoever runs it (one job id per hour)
        except Exception:  # a maintenance pass must not stop the worker; the next pass tries again
            self.log.exception("Could not queue the clean-up of unposted uploads")
        self.last_cleaned_at = now()


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists on this host (one of another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

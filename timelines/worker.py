"""The RQ worker class of socialsite (``settings.RQ["WORKER_CLASS"]``).

RQ's defaults notice a worker killed in the middle of a job only after the job's heartbeat expires
(monitoring interval + 60 s) and the next maintenance pass (every 10 minutes, and not while the worker is
blocked waiting for work). This worker heartbeats every few seconds, wakes up at least every
``MAINTENANCE_INTERVAL`` seconds, and runs maintenance that often, so an abandoned job goes back to the queue
(jobs carry ``Retry``) within about half a minute, with only the site's usual workers running.
"""

from __future__ import annotations

from typing import Any

import rq
from rq.job import Job

JOB_MONITORING_INTERVAL = 5
HEARTBEAT_GRACE_SECONDS = 10
MAINTENANCE_INTERVAL = 10


class Worker(rq.Worker):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("job_monitoring_interval", JOB_MONITORING_INTERVAL)
        kwargs.setdefault("maintenance_interval", MAINTENANCE_INTERVAL)
        super().__init__(*args, **kwargs)

    @property
    def dequeue_timeout(self) -> int:
        # Wake up from the blocking dequeue often enough to run maintenance on time.
        return self.maintenance_interval

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        # A live worker renews this every JOB_MONITORING_INTERVAL; a dead one's job expires soon after.
        return self.job_monitoring_interval + HEARTBEAT_GRACE_SECONDS

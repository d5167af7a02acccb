"""Jobs are stored as JSON, and workers read nothing else: a pickled payload planted on the queue (by anyone who
can reach the job Redis) is refused, never unpickled, so it cannot run code in a worker."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from rq.queue import Queue
from rq.serializers import DefaultSerializer

from socialsite.redis_client import get_job_redis
from timelines import limits, queue, services
from timelines.tests.helpers import run_worker_burst

pytestmark = pytest.mark.slow


def test_a_delivery_job_is_stored_as_json_carrying_only_ids_and_its_cursor(alice, followers_of):
    fans = followers_of(alice, limits.POSTS_PER_PASS + 1)
    status_id = services.post_status(uid=alice, message="hello")
    job_id = queue.delivery_job_id(
        audience="followers", status_id=status_id, after=str(fans[limits.POSTS_PER_PASS - 1])
    )
    job = queue.get_job(job_id)
    assert job is not None
    func_name, instance, args, kwargs = json.loads(job.data)  # not a pickle
    assert func_name == "timelines.tasks.deliver" and instance is None and args == []
    assert kwargs["status_id"] == status_id and kwargs["uid"] == alice
    assert kwargs["cursor_member"] == str(fans[limits.POSTS_PER_PASS - 1])
    run_worker_burst()  # and the worker runs it
    assert queue.get_job(job_id).get_status(refresh=True) == "finished"


class _Planted:
    """Unpickling this creates ``path``: what an attacker's payload would do with any code it likes."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (str(self.path), "w"))


def test_a_pickled_job_planted_on_the_queue_is_never_unpickled_by_a_worker(tmp_path):
    evidence = tmp_path / "pwned"
    planted = Queue(queue.QUEUE_NAME, connection=get_job_redis(), serializer=DefaultSerializer)
    planted.enqueue("timelines.tasks.erase", kwargs={"uid": _Planted(evidence), "phase": "x"})
    result = subprocess.run(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "rqworker", "--burst", "default"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=settings.BASE_DIR,
        check=False,
    )
    assert not evidence.exists(), "the worker unpickled a planted job"
    assert queue.get_queue().count == 0, result.stderr[-3000:]  # taken off the queue, not retried forever

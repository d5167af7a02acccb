"""``manage.py stream``: a developer sees posted statuses printed, from the server or straight from Redis."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from socialsite.redis_client import get_redis
from socialsite.testing import WAIT_SECONDS, free_port
from streaming import filters
from timelines import keys, services


def start_stream_command(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "stream", *args],
        cwd=settings.BASE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_until(predicate, timeout: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)


def finish(command: subprocess.Popen[str]) -> tuple[str, str]:
    try:
        return command.communicate(timeout=WAIT_SECONDS)
    finally:
        if command.poll() is None:
            command.kill()
            command.wait()


def test_stream_filter_prints_a_matching_status_from_the_server(server):
    alice = services.create_user(login="alice", name="Alice")
    command = start_stream_command("filter", "--track", "redis,django", "--url", server.url, "--count", "1")
    try:
        wait_until(lambda: server.hub()["subscriptions"] == 1 or command.poll() is not None)
        services.post_status(uid=alice, message="not this one")
        status_id = services.post_status(uid=alice, message="Django on Redis")
    finally:
        out, err = finish(command)
    assert command.returncode == 0, err
    printed = [json.loads(line) for line in out.splitlines()]
    assert [(p["id"], p["message"]) for p in printed] == [(status_id, "Django on Redis")]


def test_stream_sample_in_process_prints_statuses_without_a_server():
    alice = services.create_user(login="alice", name="Alice")
    command = start_stream_command("sample", "--percent", "100", "--in-process", "--count", "1")
    try:
        channel = keys.STREAM_CHANNEL
        wait_until(lambda: get_redis().pubsub_numsub(channel)[0][1] == 1 or command.poll() is not None)
        status_id = services.post_status(uid=alice, message="straight from Redis")
    finally:
        out, err = finish(command)
    assert command.returncode == 0, err
    assert json.loads(out)["id"] == status_id


def test_stream_reports_what_the_server_refused(server):
    with pytest.raises(CommandError, match=filters.NO_PREDICATE):
        call_command("stream", "filter", "--url", server.url)
    with pytest.raises(CommandError, match="percent"):
        call_command("stream", "sample", "--percent", "0", "--url", server.url)


def test_stream_rejects_bad_options_before_connecting():
    with pytest.raises(CommandError, match="filter stream"):
        call_command("stream", "sample", "--track", "redis")
    with pytest.raises(CommandError, match=filters.PERCENT_INVALID):
        call_command("stream", "sample", "--percent", "0", "--in-process")
    with pytest.raises(CommandError, match="Cannot reach"):
        call_command("stream", "sample", "--url", f"http://127.0.0.1:{free_port()}")

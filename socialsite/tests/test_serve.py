"""``manage.py serve`` (the README's run command): web server, worker and embedded Redis start together
and stop together on Ctrl-C; with no configuration at all, debug is off, a secret key is generated into
``var/secret_key`` (mode 600) and WhiteNoise serves the collected static files."""

from __future__ import annotations

import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis
import rq
from django.conf import settings

from socialsite import embedded_redis, testing

# django_db: on the PostgreSQL run, the tests that keep ``DATABASE_URL`` migrate the database it names, which exists
# only once pytest-django made the test database, and it makes it only for a test that asks for it.
pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def _fresh_env(var_dir: Path) -> dict[str, str]:
    """A fresh machine, as bin/run finds it (SQLite in the var directory, even in the PostgreSQL test run)."""
    env = {**os.environ, "SOCIALSITE_VAR_DIR": str(var_dir)}
    for unset in ("REDIS_URL", "DATABASE_URL", "DJANGO_SECRET_KEY", "DJANGO_DEBUG"):
        env.pop(unset, None)
    return env


@pytest.fixture(scope="module")
def bin_run_steps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What bin/run does before ``serve`` (``migrate``, ``collectstatic``), done once on a fresh var directory:
    each test's own var directory gets a copy of its database and a link to its static files (``prepare``)."""
    var_dir = tmp_path_factory.mktemp("bin-run")
    manage = str(settings.BASE_DIR / "manage.py")
    for step in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, manage, *step], env=_fresh_env(var_dir), check=True, cwd=settings.BASE_DIR)
    return var_dir


def prepare(env: dict[str, str], done: Path) -> None:
    """``env``'s var directory as after bin/run's steps: the migrated SQLite database copied (or, when ``env``
    names another database, ``migrate`` run on it) and the collected static files linked (the manifest included)."""
    var_dir = Path(env["SOCIALSITE_VAR_DIR"])
    if env.get("DATABASE_URL"):
        manage = str(settings.BASE_DIR / "manage.py")
        subprocess.run([sys.executable, manage, "migrate", "-v0"], env=env, check=True, cwd=settings.BASE_DIR)
    else:
        for database in done.glob("db.sqlite3*"):
            shutil.copy2(database, var_dir / database.name)
    (var_dir / "staticfiles").symlink_to(done / "staticfiles", target_is_directory=True)


def wait_for_http(url: str, timeout: float) -> bytes:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.read()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_serve_runs_the_site_and_ctrl_c_stops_everything(tmp_path, bin_run_steps):
    env = _fresh_env(tmp_path)
    manage = str(settings.BASE_DIR / "manage.py")
    prepare(env, bin_run_steps)
    port = testing.free_port()
    serve = subprocess.Popen(
        [sys.executable, manage, "serve", "--port", str(port), "--workers", "1"],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        page = wait_for_http(f"http://127.0.0.1:{port}/", timeout=2 * testing.WAIT_SECONDS)
        assert b"Sign up" in page
        assert embedded_redis.is_running(tmp_path / "redis")
        key_file = tmp_path / "secret_key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600 and len(key_file.read_text().strip()) >= 50
        stylesheet = re.search(rb'href="(/static/css/site\.[0-9a-f]+\.css)"', page)  # hashed: the manifest is used
        assert stylesheet and wait_for_http(
            f"http://127.0.0.1:{port}{stylesheet[1].decode()}", timeout=testing.WAIT_SECONDS
        )
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/no/such/page", timeout=testing.WAIT_SECONDS)
        body = missing.value.read().decode()
        assert missing.value.code == 404 and "Back to the home page" in body and "URLconf" not in body  # no debug
        serve.send_signal(signal.SIGINT)
        output, _ = serve.communicate(timeout=60)
    finally:
        if serve.poll() is None:
            serve.kill()
    assert serve.returncode == 0, output.decode()[-2000:]
    assert not embedded_redis.is_running(tmp_path / "redis")
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)


def _children(pid: int) -> set[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as children:
        return {int(child) for child in children.read().split()}


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def test_serve_runs_several_web_processes_on_one_port_each_answering_and_stops_them_all(tmp_path, bin_run_steps):
    """Two daphne processes share the port: with either one frozen the other answers; one killed is replaced
    while the site keeps answering; SIGTERM to ``serve`` leaves no process behind."""
    env = {**os.environ, "SOCIALSITE_VAR_DIR": str(tmp_path), "DJANGO_DEBUG": "0"}
    manage = str(settings.BASE_DIR / "manage.py")
    prepare(env, bin_run_steps)
    port = testing.free_port()
    serve = subprocess.Popen(
        [sys.executable, manage, "serve", "--port", str(port), "--workers", "0", "--web-processes", "2"],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    healthz = f"http://127.0.0.1:{port}/healthz"
    try:
        assert wait_for_http(healthz, timeout=2 * testing.WAIT_SECONDS) == b"ok"
        first, second = sorted(_children(serve.pid))
        for frozen in (first, second):  # the other one answers alone
            os.kill(frozen, signal.SIGSTOP)
            try:
                for _ in range(5):
                    with urllib.request.urlopen(healthz, timeout=testing.WAIT_SECONDS) as response:
                        assert response.read() == b"ok"
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=testing.WAIT_SECONDS) as response:
                    assert b"Sign up" in response.read()
            finally:
                os.kill(frozen, signal.SIGCONT)
        os.kill(first, signal.SIGKILL)
        for _ in range(10):
            with urllib.request.urlopen(healthz, timeout=testing.WAIT_SECONDS) as response:
                assert response.read() == b"ok"
        assert _wait_for(lambda: len(_children(serve.pid) - {first}) == 2, timeout=testing.WAIT_SECONDS)
        processes = _children(serve.pid)
        assert first not in processes and second in processes
        serve.send_signal(signal.SIGTERM)
        output, _ = serve.communicate(timeout=60)
    finally:
        if serve.poll() is None:
            serve.kill()
    assert serve.returncode == 0, output.decode()[-2000:]
    assert b"restarting it" in output
    assert not any(_alive(pid) for pid in processes)
    with pytest.raises(OSError):
        urllib.request.urlopen(healthz, timeout=2)


def _status(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=testing.WAIT_SECONDS) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return ""


def test_serve_restarts_its_redis_and_a_worker_killed_with_sigkill_and_says_why(tmp_path, bin_run_steps):
    """kill -9 of the embedded Redis: pages answer again without anyone starting it by hand (they answered 503
    until someone did); kill -9 of a worker: a new one takes its place. The log says what died and how."""
    env = {**os.environ, "SOCIALSITE_VAR_DIR": str(tmp_path), "DJANGO_DEBUG": "0"}
    for unset in ("REDIS_URL", "DATABASE_URL"):  # serve's own embedded Redis and database, in tmp_path
        env.pop(unset, None)
    manage = str(settings.BASE_DIR / "manage.py")
    prepare(env, bin_run_steps)
    port = testing.free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        serve = subprocess.Popen(
            [sys.executable, manage, "serve", "--port", str(port), "--workers", "1", "--web-processes", "1"],
            env=env,
            cwd=settings.BASE_DIR,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    home = f"http://127.0.0.1:{port}/tags/hello"  # a page that reads Redis, for anyone
    healthz = f"http://127.0.0.1:{port}/healthz"
    redis_dir = tmp_path / "redis"
    try:
        assert testing.wait_until(lambda: _status(home) == 200, timeout=2 * testing.WAIT_SECONDS), log_path.read_text()
        jobs = redis.Redis.from_url(embedded_redis.socket_url(redis_dir))

        first_redis = embedded_redis.pid(redis_dir)
        os.kill(first_redis, signal.SIGKILL)
        # /healthz too: on a cluster run the tag page reads the cluster, and only the jobs' Redis was killed.
        assert testing.wait_until(
            lambda: embedded_redis.pid(redis_dir) != first_redis and _status(healthz) == 200 == _status(home)
        ), log_path.read_text()[-3000:]
        # serve logs the restart once the new Redis answers, which may be just after the pages see it back.
        assert testing.wait_until(lambda: "Restarted the embedded Redis" in log_path.read_text()), log_path.read_text()
        assert f"The embedded Redis (pid {first_redis}) is no longer running" in log_path.read_text()

        def workers() -> set[int]:
            return {pid for pid in _children(serve.pid) if "rqworker" in _cmdline(pid)}

        def registered() -> set[int]:
            return {worker.pid for worker in rq.Worker.all(connection=jobs)}

        assert testing.wait_until(lambda: workers() and registered() == workers()), log_path.read_text()[-3000:]
        [doomed] = workers()
        os.kill(doomed, signal.SIGKILL)
        assert testing.wait_until(lambda: workers() - {doomed} and (registered() - {doomed}) == workers())
        assert f"RQ worker (pid {doomed}) was killed by signal SIGKILL; restarting it" in log_path.read_text()
        jobs.close()
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=60)
    finally:
        if serve.poll() is None:
            serve.kill()
            embedded_redis.stop(redis_dir)
    output = log_path.read_text()
    assert serve.returncode == 0, output[-3000:]
    assert not embedded_redis.is_running(redis_dir)

"""Two socialsite servers on loopback for the federation tests, each as production runs it: daphne serving the
site, an RQ worker with its scheduler, its own embedded Redis, its own SQLite file and var directory, and
``SOCIALSITE_DOMAIN=127.0.0.1:<port>`` with ``SOCIALSITE_FEDERATION_INSECURE=1`` (plain http on loopback).

The test talks to each as a person or an operator would: Python run in a Django process of that server
(``Peer.run``, one long-lived process per server, so each step costs no Django start-up) for what a person does
on the site (sign up, follow, post), HTTP for what other servers see, and a Redis client on the server's own
Redis to read what a page would show (``home_of``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis
from django.conf import settings

from socialsite import embedded_redis, testing
from timelines import keys

# Reads blocks of code from stdin ("<length>\\n<code>"), runs each with Django set up, and answers
# "<ok|error> <length>\\n<what it printed, or the traceback>".
_RUNNER = """
import contextlib, io, os, sys, traceback
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
import django
django.setup()
while header := sys.stdin.readline():
    code = sys.stdin.read(int(header))
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(code, {})
        state = "ok"
    except BaseException:
        out.write(traceback.format_exc())
        state = "error"
    printed = out.getvalue()
    sys.stdout.write(f"{state} {len(printed)}\\n{printed}")
    sys.stdout.flush()
"""


@dataclass
class Peer:
    name: str
    url: str
    env: dict[str, str]
    redis_url: str
    runner: subprocess.Popen[str] = field(repr=False)

    @property
    def domain(self) -> str:
        return self.url.removeprefix("http://")

    def run(self, code: str) -> str:
        """Run ``code`` in this server's Django process; returns what it printed (a traceback fails the test)."""
        code = textwrap.dedent(code)
        assert self.runner.stdin and self.runner.stdout
        self.runner.stdin.write(f"{len(code)}\n{code}")
        self.runner.stdin.flush()
        state, length = self.runner.stdout.readline().split()
        printed = self.runner.stdout.read(int(length))
        assert state == "ok", f"{self.name}: {printed}"
        return printed.strip()

    def redis(self) -> redis.Redis:
        return redis.Redis.from_url(self.redis_url, decode_responses=True)

    def home_of(self, uid: int) -> list[str]:
        """The messages in ``uid``'s home on this server, newest first (deleted statuses skipped)."""
        client = self.redis()
        ids = client.zrevrange(keys.home_timeline(uid), 0, -1)
        messages = [client.hmget(keys.status(int(status_id)), "M", "message") for status_id in ids]
        # The message is stored under its short name (timelines.store.status_hash), or its long one.
        return [short or long for short, long in messages if (short or long) is not None]


def _environment(var_dir: Path, redis_url: str, port: int) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in ("REDIS_CLUSTER_URL", "DATABASE_URL")}
    env.update(
        {
            "SOCIALSITE_VAR_DIR": str(var_dir),
            "REDIS_URL": redis_url,
            "DATABASE_URL": f"sqlite:///{var_dir / 'db.sqlite3'}",
            "SOCIALSITE_DOMAIN": f"127.0.0.1:{port}",
            "SOCIALSITE_FEDERATION_INSECURE": "1",
            "SOCIALSITE_EMBEDDED_REDIS_AUTOSTART": "0",
        }
    )
    return env


_template: dict[str, dict[str, str]] = {}


def _migrated(env: dict[str, str]) -> tuple[Path, dict[str, str]]:
    """A var directory with a freshly migrated SQLite database and the collected static files, made once per test
    session (the first time a test starts servers, with the first server's environment): each server's own
    database starts as a copy of it, and its static files are a link to these."""
    if "env" not in _template:
        var_dir = Path(settings.VAR_DIR) / "federation-peer-template"
        var_dir.mkdir(parents=True, exist_ok=True)
        made = {**env, "SOCIALSITE_VAR_DIR": str(var_dir), "DATABASE_URL": f"sqlite:///{var_dir / 'db.sqlite3'}"}
        manage = str(settings.BASE_DIR / "manage.py")
        migration = subprocess.Popen([sys.executable, manage, "migrate", "-v0"], env=made, cwd=settings.BASE_DIR)
        testing.collect_static(made)
        assert migration.wait(timeout=testing.WAIT_SECONDS * 4) == 0
        _template["env"] = made
    made = _template["env"]
    return Path(made["SOCIALSITE_VAR_DIR"]), made


def _stop_all(processes: list[subprocess.Popen]) -> None:
    """Ask every process to stop at once, then wait for each (SIGKILL after a while): stopping them in turn
    would add their shutdown times up."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        testing.stop(process)


@contextlib.contextmanager
def two_servers(base: Path, settings_of: dict[str, dict[str, str]] | None = None) -> Iterator[tuple[Peer, Peer]]:
    """Servers A and B, migrated and serving, until the block ends. Everything of both starts side by side.
    ``settings_of``: more environment for a server by name (``{"b": {"SOCIALSITE_...": "1"}}``)."""
    with servers(base, ("a", "b"), settings_of) as started:
        yield started[0], started[1]


@contextlib.contextmanager
def servers(
    base: Path, names: tuple[str, ...], settings_of: dict[str, dict[str, str]] | None = None
) -> Iterator[list[Peer]]:
    """One server per name, migrated and serving, until the block ends (``settings_of`` as for
    ``two_servers``)."""
    manage = str(settings.BASE_DIR / "manage.py")
    with contextlib.ExitStack() as stack:
        processes: list[subprocess.Popen] = []
        stack.callback(_stop_all, processes)
        peers = []
        for name in names:
            var_dir = base / name
            var_dir.mkdir(parents=True)
            redis_url = embedded_redis.ensure_running(var_dir / "redis")
            stack.callback(embedded_redis.stop, var_dir / "redis")
            port = testing.free_port()
            env = {**_environment(var_dir, redis_url, port), **(settings_of or {}).get(name, {})}
            peers.append((name, var_dir, redis_url, port, env))
        # One migration, copied: every server's database starts as an empty copy of the session's migrated one.
        template, template_env = _migrated(peers[0][4])
        for _name, var_dir, _redis_url, _port, env in peers:
            testing.share_static(env, template_env)
            shutil.copyfile(template / "db.sqlite3", var_dir / "db.sqlite3")
        started = []
        for name, var_dir, redis_url, port, env in peers:
            worker_log = stack.enter_context((var_dir / "worker.log").open("wb"))
            web_log = stack.enter_context((var_dir / "web.log").open("wb"))
            processes.append(
                subprocess.Popen(
                    [sys.executable, manage, "rqworker", "--with-scheduler", "default"],
                    env=env,
                    cwd=settings.BASE_DIR,
                    stdout=worker_log,
                    stderr=subprocess.STDOUT,
                )
            )
            web = testing.start_daphne(env, port=port, log=web_log)
            runner = subprocess.Popen(
                [sys.executable, "-c", _RUNNER],
                env=env,
                cwd=settings.BASE_DIR,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            processes += [web, runner]
            url = f"http://127.0.0.1:{port}"
            started.append((Peer(name=name, url=url, env=env, redis_url=redis_url, runner=runner), web, var_dir))
        for peer, web, var_dir in started:
            testing.wait_until_served(peer.url + "/healthz", web, testing.WAIT_SECONDS * 2, var_dir / "web.log")
        yield [peer for peer, _, _ in started]

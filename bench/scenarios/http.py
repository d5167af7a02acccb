"""Scenario 6: pages through the web server exactly as ``./bin/run`` serves them (``manage.py serve``: one daphne
process per core on one port, DEBUG off, static files from the manifest), loaded by wrk on loopback with 50
concurrent connections: requests/s and p50/p99 latency of the logged-in home page, a profile, a post page and a
tag page (30 posts each), and of ``/healthz`` on the same server, a Django view whose only read is one Redis
PING (no session). The machine is shared, so the figure that holds is a page's rate as a share of ``/healthz``'s:
the pages are loaded in turn, round after round, and the share is the median of each round's. Beside it, the CPU
time the web processes spent per request (from ``/proc``), which other people's load disturbs less. The
service-layer time of the home page and the profile (their selectors, timed in-process) stands beside them. wrk
comes from Debian (``apt-get install wrk``); the harness installs it when it can.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.test import Client

from accounts.services import sign_up
from bench.graph import bulk_follow, bulk_users
from bench.harness import Context, Row, summary, timed
from socialsite import testing
from timelines import selectors, services

CONNECTIONS = 50
PAGE_SIZE = 30
# The goals of issue 13 for the home page, and how close the other pages must come to it.
HOME_RATE_BAR = 300.0
HOME_P99_BAR_MS = 150.0
HOME_SHARE_OF_HEALTHZ_BAR = 0.35
OTHER_PAGES_SHARE_OF_HOME_BAR = 0.80
TAG = "benchtag"


@dataclass(frozen=True)
class Load:
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    cpu_ms_per_request: float | None = None


def _children_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid``'s child processes (the web processes of ``serve``); None off Linux."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            pids = children.read().split()
        total = 0
        for child in pids:
            with open(f"/proc/{child}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    except (OSError, ValueError, IndexError):
        return None
    return total / os.sysconf("SC_CLK_TCK")


def _wrk() -> str | None:
    found = shutil.which("wrk")
    if found or os.geteuid() != 0 or not shutil.which("apt-get"):
        return found
    subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], capture_output=True, check=False)
    if not shutil.which("wrk"):
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True, check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], capture_output=True, check=False)
    return shutil.which("wrk")


def _load(
    wrk: str, url: str, seconds: float, cookie: str | None, server_pid: int | None = None, *, token: str | None = None
) -> Load:
    command = [wrk, "-t2", f"-c{CONNECTIONS}", f"-d{max(1, round(seconds))}s", "--latency", url]
    if cookie:
        command[1:1] = ["-H", f"Cookie: {cookie}"]
    if token:
        command[1:1] = ["-H", f"Authorization: Bearer {token}"]
    cpu_before = _children_cpu_seconds(server_pid) if server_pid else None
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    cpu_after = _children_cpu_seconds(server_pid) if server_pid else None
    requests = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    served = int(re.search(r"(\d+) requests in", output).group(1))
    cpu_ms = None
    if cpu_before is not None and cpu_after is not None and served:
        cpu_ms = 1000 * (cpu_after - cpu_before) / served

    def latency(pct: str) -> float:
        value, unit = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors:
        raise AssertionError(f"wrk saw {errors.group(1)} error responses from {url}")
    return Load(requests, latency("50"), latency("99"), cpu_ms)


def _median_load(loads: list[Load]) -> Load:
    cpu = [load.cpu_ms_per_request for load in loads if load.cpu_ms_per_request is not None]
    return Load(
        statistics.median(load.requests_per_second for load in loads),
        statistics.median(load.p50_ms for load in loads),
        statistics.median(load.p99_ms for load in loads),
        statistics.median(cpu) if cpu else None,
    )


def _setup(ctx: Context) -> tuple[str, dict[str, str], dict[str, Callable[[], object]]]:
    """The reader, what they read, and their session cookie; returns (cookie, page paths, service-layer reads)."""
    reader = sign_up(login="reader", name="Reader", password=None)
    authors = bulk_users(ctx, 20, prefix="writer")
    bulk_follow(ctx, [(reader.uid, author) for author in authors])
    for i in range(ctx.scale(60, 200)):
        message = f"hello from the benchmark #{TAG} " + "x" * 100
        services.post_status(uid=authors[i % len(authors)], message=message)
    # A post with a page of replies under it: its page shows 30 posts like the others.
    thread = services.post_status(uid=authors[0], message="a thread to read on its own page")
    for i in range(PAGE_SIZE - 1):
        services.post_status(
            uid=authors[1 + i % (len(authors) - 1)], message=f"reply {i} " + "y" * 100, in_reply_to=thread
        )
    client = Client()
    client.force_login(reader)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    profile_login = selectors.get_user(uid=authors[0]).login
    paths = {
        "healthz": "/healthz",
        "home page": "/",
        "profile page": f"/@{profile_login}",
        "post page": f"/@{profile_login}/{thread}",
        "tag page": f"/tags/{TAG}",
    }
    layers: dict[str, Callable[[], object]] = {
        "home page": lambda: (
            selectors.get_user(uid=reader.uid),
            selectors.get_status_messages(uid=reader.uid, count=PAGE_SIZE),
        ),
        "profile page": lambda: (
            selectors.get_user_by_login(login=profile_login),
            selectors.get_status_messages(uid=authors[0], timeline="profile", count=PAGE_SIZE, viewer_uid=reader.uid),
        ),
    }
    return cookie, paths, layers


def run(ctx: Context) -> list[Row]:
    wrk = _wrk()
    if wrk is None:
        return [Row("6 http", "skipped", None, note="wrk is not installed and could not be installed")]
    cookie, paths, layers = _setup(ctx)
    # Same secret key as this process, so the session cookie made here is valid there.
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    rounds = ctx.scale(1, 5)
    seconds = ctx.scale(1, 3)
    loads: dict[str, list[Load]] = {page: [] for page in paths}
    with testing.serve(env, probe=paths["profile page"], start_timeout=60, stop_timeout=10) as (base, server):
        # The probe sends no cookie, as a load balancer's would; every page is read by the logged-in reader.
        cookies = {page: None if page == "healthz" else cookie for page in paths}
        for page, path in paths.items():  # every process renders each page once before the clock starts
            if not ctx.smoke:  # --smoke measures nothing: no warm-up second per page
                _load(wrk, base + path, 1, cookies[page])
        # Alternating rounds: a machine getting busier or quieter during the run shifts every page alike.
        for _ in range(rounds):
            for page, path in paths.items():
                loads[page].append(_load(wrk, base + path, seconds, cookies[page], server.pid))
    layer_times = {page: summary(timed(read, 200)) for page, read in layers.items()}
    result = {page: _median_load(samples) for page, samples in loads.items()}
    # Each round's pages ran back to back, so their ratio is the least disturbed by a machine changing speed.
    shares = [
        home.requests_per_second / healthz.requests_per_second
        for home, healthz in zip(loads["home page"], loads["healthz"], strict=True)
    ]
    return _rows(result, statistics.median(shares), layer_times)


def _cpu_note(healthz: Load, home: Load) -> str:
    if healthz.cpu_ms_per_request is None or not home.cpu_ms_per_request:
        return ""
    share = healthz.cpu_ms_per_request / home.cpu_ms_per_request
    return (
        f"median of {CONNECTIONS}-connection rounds; by web-process CPU per request: /healthz "
        f"{healthz.cpu_ms_per_request:.2f} ms, home {home.cpu_ms_per_request:.2f} ms, {100 * share:.0f}%"
    )


def _rows(result: dict[str, Load], home_share: float, layer_times: dict[str, tuple[float, float]]) -> list[Row]:
    healthz, home = result["healthz"], result["home page"]
    processes = settings.WEB_PROCESSES or os.cpu_count() or 1
    rows = [
        Row(
            "6 http",
            f"/healthz requests/s, {CONNECTIONS} connections",
            healthz.requests_per_second,
            unit="req/s",
            note=f"{processes} web processes; p50 {healthz.p50_ms:.0f} ms, p99 {healthz.p99_ms:.0f} ms",
        ),
        Row(
            "6 http",
            f"home page / requests/s, {CONNECTIONS} connections",
            home.requests_per_second,
            unit="req/s",
            bar=f">= {HOME_RATE_BAR:.0f}",
            passed=home.requests_per_second >= HOME_RATE_BAR,
        ),
        Row(
            "6 http",
            "home page / share of /healthz's rate",
            100 * home_share,
            unit="%",
            bar=f">= {100 * HOME_SHARE_OF_HEALTHZ_BAR:.0f}",
            passed=home_share >= HOME_SHARE_OF_HEALTHZ_BAR,
            note=_cpu_note(healthz, home),
        ),
        Row(
            "6 http",
            "home page / latency p50",
            home.p50_ms,
            unit="ms",
            higher_is_better=False,
            note=f"service layer p50 {layer_times['home page'][0]:.2f} ms",
        ),
        Row(
            "6 http",
            "home page / latency p99",
            home.p99_ms,
            unit="ms",
            higher_is_better=False,
            bar=f"<= {HOME_P99_BAR_MS:.0f}",
            passed=home.p99_ms <= HOME_P99_BAR_MS,
            note=f"service layer p99 {layer_times['home page'][1]:.2f} ms",
        ),
    ]
    for page in ("profile page", "post page", "tag page"):
        load = result[page]
        share = load.requests_per_second / home.requests_per_second
        layer = layer_times.get(page)
        rows.append(
            Row(
                "6 http",
                f"{page} requests/s, {CONNECTIONS} connections",
                load.requests_per_second,
                unit="req/s",
                bar=f">= {100 * OTHER_PAGES_SHARE_OF_HOME_BAR:.0f}% of home",
                passed=share >= OTHER_PAGES_SHARE_OF_HOME_BAR,
                note=f"{100 * share:.0f}% of home; p50 {load.p50_ms:.0f} ms, p99 {load.p99_ms:.0f} ms"
                + (f"; CPU {load.cpu_ms_per_request:.2f} ms/request" if load.cpu_ms_per_request else "")
                + (f"; service layer p50 {layer[0]:.2f} ms" if layer else ""),
            )
        )
    return rows

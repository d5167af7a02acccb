"""Scenario 6: the home page and a profile page through daphne, loaded by wrk on loopback with 50
concurrent connections: requests/s and p50/p99 latency, with the service-layer time of the same page beside
it (the selectors the view calls, timed in-process). wrk comes from Debian (``apt-get install wrk``); the
harness installs it when it can.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.test import Client

from accounts.services import sign_up
from bench.graph import bulk_follow, bulk_users
from bench.harness import Context, Row, summary, timed
from socialsite import testing
from timelines import selectors, services

CONNECTIONS = 50
MANAGE = Path(__file__).resolve().parents[2] / "manage.py"


def _wrk() -> str | None:
    found = shutil.which("wrk")
    if found or os.geteuid() != 0 or not shutil.which("apt-get"):
        return found
    subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], capture_output=True, check=False)
    if not shutil.which("wrk"):
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True, check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], capture_output=True, check=False)
    return shutil.which("wrk")


def _load(wrk: str, url: str, seconds: int, cookie: str | None) -> tuple[float, float, float]:
    command = [wrk, "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", url]
    if cookie:
        command[1:1] = ["-H", f"Cookie: {cookie}"]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    requests = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))

    def latency(pct: str) -> float:
        value, unit = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors:
        raise AssertionError(f"wrk saw {errors.group(1)} error responses from {url}")
    return requests, latency("50"), latency("99")


def run(ctx: Context) -> list[Row]:
    wrk = _wrk()
    if wrk is None:
        return [Row("6 http", "skipped", None, note="wrk is not installed and could not be installed")]
    reader = sign_up(login="reader", name="Reader", password=None)
    authors = bulk_users(ctx, 20, prefix="writer")
    bulk_follow(ctx, [(reader.uid, author) for author in authors])
    for i in range(ctx.scale(60, 200)):
        services.post_status(uid=authors[i % len(authors)], message="hello from the benchmark " + "x" * 110)
    client = Client()
    client.force_login(reader)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    profile_login = selectors.get_user(uid=authors[0]).login

    # Same secret key as this process, so the session cookie made here is valid there.
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    subprocess.run([sys.executable, str(MANAGE), "collectstatic", "--noinput", "-v0"], env=env, check=True)
    rows = []
    with testing.daphne(env, probe=f"/@{profile_login}", start_timeout=30, stop_timeout=3) as (base, _):
        seconds = ctx.scale(2, 10)
        home_layer = summary(
            timed(
                lambda: (selectors.get_user(uid=reader.uid), selectors.get_status_messages(uid=reader.uid, count=30)),
                200,
            )
        )
        profile_layer = summary(
            timed(
                lambda: (
                    selectors.get_user_by_login(login=profile_login),
                    selectors.get_status_messages(uid=authors[0], timeline="profile", count=30),
                ),
                200,
            )
        )
        for page, url, page_cookie, layer in (
            ("home page /", f"{base}/", cookie, home_layer),
            ("profile page /@login", f"{base}/@{profile_login}", None, profile_layer),
        ):
            requests, p50, p99 = _load(wrk, url, seconds, page_cookie)
            rows.append(Row("6 http", f"{page} requests/s, {CONNECTIONS} connections", requests, None, "req/s"))
            rows.append(
                Row(
                    "6 http",
                    f"{page} latency p50",
                    p50,
                    None,
                    "ms",
                    higher_is_better=False,
                    note=f"service layer p50 {layer[0]:.2f} ms",
                )
            )
            rows.append(
                Row(
                    "6 http",
                    f"{page} latency p99",
                    p99,
                    None,
                    "ms",
                    higher_is_better=False,
                    note=f"service layer p99 {layer[1]:.2f} ms",
                )
            )
    return rows

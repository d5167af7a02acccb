"""``manage.py serve`` (the README's run command): web server, worker and embedded Redis start together
and stop together on Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest
from django.conf import settings

from socialsite import embedded_redis, testing

pytestmark = pytest.mark.slow


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


def test_serve_runs_the_site_and_ctrl_c_stops_everything(tmp_path):
    env = {**os.environ, "SOCIALSITE_VAR_DIR": str(tmp_path)}
    env.pop("REDIS_URL", None)  # the site's own embedded Redis, as on a fresh machine
    manage = str(settings.BASE_DIR / "manage.py")
    subprocess.run([sys.executable, manage, "migrate", "-v0"], env=env, check=True, cwd=settings.BASE_DIR)
    port = testing.free_port()
    serve = subprocess.Popen(
        [sys.executable, manage, "serve", "--port", str(port), "--workers", "1"],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        page = wait_for_http(f"http://127.0.0.1:{port}/", timeout=30)
        assert b"Sign up" in page
        assert embedded_redis.is_running(tmp_path / "redis")
        serve.send_signal(signal.SIGINT)
        output, _ = serve.communicate(timeout=60)
    finally:
        if serve.poll() is None:
            serve.kill()
    assert serve.returncode == 0, output.decode()[-2000:]
    assert not embedded_redis.is_running(tmp_path / "redis")
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)

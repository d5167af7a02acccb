"""``manage.py serve`` (the README's run command): web server, worker and embedded Redis start together
and stop together on Ctrl-C; with no configuration at all, debug is off, a secret key is generated into
``var/secret_key`` (mode 600) and WhiteNoise serves the collected static files."""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
import time
import urllib.error
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
    for unset in ("REDIS_URL", "DJANGO_SECRET_KEY", "DJANGO_DEBUG"):  # a fresh machine, as bin/run finds it
        env.pop(unset, None)
    manage = str(settings.BASE_DIR / "manage.py")
    for step in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):  # what bin/run does first
        subprocess.run([sys.executable, manage, *step], env=env, check=True, cwd=settings.BASE_DIR)
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
        key_file = tmp_path / "secret_key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600 and len(key_file.read_text().strip()) >= 50
        stylesheet = re.search(rb'href="(/static/css/site\.[0-9a-f]+\.css)"', page)  # hashed: the manifest is used
        assert stylesheet and wait_for_http(f"http://127.0.0.1:{port}{stylesheet[1].decode()}", timeout=5)
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/no/such/page", timeout=5)
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

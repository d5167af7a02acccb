"""The secret key of a site run without configuration (socialsite/secret_key.py): generated once into
``var/secret_key`` with mode 600, and what settings use, with debug off, when the environment gives none."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from socialsite import secret_key


def test_the_secret_key_is_generated_once_with_mode_600(tmp_path):
    path = tmp_path / "var" / "secret_key"
    key = secret_key.load_or_create(path)
    assert len(key) >= 50 and len(set(key)) >= 5
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secret_key.load_or_create(path) == key
    assert list(path.parent.iterdir()) == [path]  # no scratch file left behind


def test_settings_use_the_generated_key_and_debug_is_off_without_configuration(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("DJANGO_SECRET_KEY", "DJANGO_DEBUG")}
    env["SOCIALSITE_VAR_DIR"] = str(tmp_path)
    manage = str(Path(settings.BASE_DIR) / "manage.py")
    code = "from django.conf import settings; print('=>', settings.DEBUG, settings.SECRET_KEY)"
    outputs = [
        subprocess.run(
            [sys.executable, manage, "shell", "-c", code], env=env, capture_output=True, text=True, check=True
        )
        .stdout.split("=>")[-1]
        .split()
        for _ in range(2)
    ]
    assert outputs[0] == outputs[1] == ["False", (tmp_path / "secret_key").read_text().strip()]

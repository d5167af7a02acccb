"""The secret key of a site run without ``DJANGO_SECRET_KEY``: made once, kept in ``var/secret_key``.

A fresh machine then needs no configuration (``./bin/run``), every process of the site (web, workers,
``manage.py``) signs with the same key, and sessions survive a restart. The file is created with mode 600,
atomically (written aside, then linked into place), so processes starting together agree on one key. ``var/`` is
not committed. Imported by ``settings``, so it uses nothing that needs Django configured.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

KEY_BYTES = 48  # 64 characters of URL-safe base64: well past check --deploy's 50 characters and 5 distinct ones


def load_or_create(path: Path) -> str:
    """The key stored at ``path``, creating the file (mode 600) the first time."""
    with contextlib.suppress(FileNotFoundError):
        key = path.read_text().strip()
        if key:
            return key
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_urlsafe(KEY_BYTES) + "\n")
        try:
            os.link(scratch, path)  # fails if another process got there first: its key wins
        except FileExistsError:
            if not path.read_text().strip():
                os.replace(scratch, path)  # an empty file (a disk that filled up) is no key
    finally:
        scratch.unlink(missing_ok=True)
    return path.read_text().strip()

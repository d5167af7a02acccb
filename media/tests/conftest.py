"""Each test of pictures stores its files in a directory of its own, so what a test finds on disk is its own."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):  # type: ignore[no-untyped-def]
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT

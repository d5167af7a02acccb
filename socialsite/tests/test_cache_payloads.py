"""The Django cache (rate-limit counters, on ``REDIS_URL``) stores JSON and never unpickles what it reads: a
pickled value planted in Redis under a cache key cannot run code in a web process."""

from __future__ import annotations

import json
import pickle

import pytest
from django.core.cache import cache

from socialsite.redis_client import get_job_redis


class _Planted:
    """Unpickling this creates ``path``."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (self.path, "w"))


def test_a_pickled_value_planted_under_a_cache_key_is_never_unpickled(tmp_path):
    evidence = tmp_path / "pwned"
    key = cache.make_and_validate_key("planted")
    get_job_redis().set(key, pickle.dumps(_Planted(str(evidence))))
    with pytest.raises(ValueError):  # not JSON: refused
        cache.get("planted")
    assert not evidence.exists()


def test_cached_values_are_stored_as_json():
    cache.set("probe", {"limit": [1, 2]})
    assert json.loads(get_job_redis().get(cache.make_and_validate_key("probe"))) == {"limit": [1, 2]}
    assert cache.get("probe") == {"limit": [1, 2]}

"""The home's read marker (``keys.home_marker``): where an app last stopped reading the home timeline."""

from __future__ import annotations

from socialsite.redis_client import get_redis
from timelines import keys


def home_marker(uid: int) -> dict[str, str]:
    """The marker's fields (empty when none was ever set). One round trip."""
    return get_redis().hgetall(keys.home_marker(uid))


def set_home_marker(uid: int, last_read_id: int, now: float) -> dict[str, str]:
    """Move the marker to ``last_read_id`` (counting the move in ``version``) and return its fields: one MULTI on
    the person's slot, one round trip."""
    key = keys.home_marker(uid)
    with get_redis().pipeline(transaction=True) as pipe:
        pipe.hset(key, mapping={"last_read_id": last_read_id, "updated": repr(now)})
        pipe.hincrby(key, "version", 1)
        version = pipe.execute()[-1]
    return {"last_read_id": str(last_read_id), "updated": repr(now), "version": str(version)}

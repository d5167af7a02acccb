"""Publishing typed events on the channel every server process subscribes to (``keys.channels``).

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from socialsite.redis_client import get_redis


def publish(channel: str, message: str) -> int:
    return int(get_redis().publish(channel, message))

"""Publishing typed events on the channel every server process subscribes to (``keys.channels``).

See ``timelines.store`` for the rules every store module follows.
"""

from __future__ import annotations

from typing import Any

from socialsite.redis_client import get_redis


def publish(channel: str, message: str, *, pipe: Any = None) -> int:
    """Publish ``message``; the number of subscribers that got it (0 when queued on ``pipe``, a batch)."""
    if pipe is not None:
        pipe.publish(channel, message)
        return 0
    return int(get_redis().publish(channel, message))

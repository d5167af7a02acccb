"""Publishing typed events (``timelines.events``) after a write succeeded: the services' only way out.

Pub/sub is at-most-once by nature: a failed publish is logged and the write it describes stands.
"""

from __future__ import annotations

import logging
from typing import Any

from redis.exceptions import RedisError

from timelines import keys, store

logger = logging.getLogger(__name__)


def publish(message: str, *, pipe: Any = None) -> None:
    """Publish one encoded event on ``keys.STREAM_CHANNEL`` (last on ``pipe``, a ``store.batch``, when given);
    never raises for Redis errors."""
    try:
        store.pubsub.publish(keys.STREAM_CHANNEL, message, pipe=pipe)
    except RedisError:
        logger.warning("Could not publish an event; the write itself succeeded.", exc_info=True)

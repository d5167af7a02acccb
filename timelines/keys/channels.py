"""The pub/sub channel of typed events (see ``timelines.events``)::

    streaming:status:   every event as JSON, ``{"type": "status.created", "v": 1, ...}``
                        > SUBSCRIBE streaming:status:
                        {"type":"status.created","v":1,"status":{"message":"hi","posted":...,"id":9001,...}}

Classic PUBLISH reaches the subscribers of every node of a Redis Cluster, so one channel serves both layouts.
"""

from __future__ import annotations

STREAM_CHANNEL = "streaming:status:"

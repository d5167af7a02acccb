"""The pub/sub channel of typed events (see ``timelines.events``)::

    streaming:status:   every event as JSON, ``{"type": "status.created", "v": 1, ...}``
                        > SUBSCRIBE streaming:status:
                        {"type":"status.created","v":1,"status":{"message":"hi","posted":...,"id":9001,...}}

Classic PUBLISH reaches the subscribers of every node of a Redis Cluster, so one channel serves both layouts.
"""

from __future__ import annotations

STREAM_CHANNEL = "streaming:status:"


# The names of live timelines in the streaming hub's in-memory index, which the ``timeline.delivery`` events carry
# (``streaming.events``): they name timelines as their Redis keys do, but are not Redis keys themselves.


def hub_home(uid: int) -> str:
    """The hub's index name of ``uid``'s home timeline."""
    return f"home:{uid}"


def hub_list(list_id: int) -> str:
    """The hub's index name of list ``list_id``'s timeline."""
    return f"list:{list_id}"


def hub_followers(uid: int) -> str:
    """The hub's index name of the posts of ``uid`` merged into its followers' homes when read."""
    return f"followers:{uid}"

"""Plain data access for the social graph: the only timelines code that sends Redis commands.

One module per concern, used as ``store.<module>.<function>``: ``users``, ``statuses``, ``timelines`` (one timeline
ZSET), ``fanout`` (writes to many timelines at once), ``copies`` (an author's newest statuses into one timeline),
``unfollows`` (an unfollow with what it takes out of a home), ``graph`` (id sets with counters: followers, following,
list members), ``lists``, ``refill``, ``pubsub``, ``pulled`` (hybrid fan-out), ``conversations`` (replies and
threads), ``markers`` (the home's read marker), ``messages`` (direct messages' conversations), ``likes``,
``bookmarks``, ``reposts``, ``notifications``, ``privacy``, ``pages`` (a page of statuses for one viewer), ``tags``,
``search`` and ``profiles`` (discovery and profile edits), ``moderation``, ``idle`` (last visits and idle-dropped
timelines), ``stats`` (the dashboard's counters) and ``health`` (the servers' memory and keys); ``lua`` registers the
scripts in ``scripts/``. ``edits`` keeps the earlier versions of edited statuses (issue 19). ``follow_pairs`` reads
and makes a follow in one step.

Functions here know keys and commands, not rules: services decide what to write and in which order, selectors
decide what to read. Each function is one round trip (a command, a pipeline or a Lua script) unless its
docstring says otherwise. Every script touches the keys of one hash slot only (see ``keys``), except the batch
scripts of ``fanout`` and ``reposts``, which are sent per hash slot on a Redis Cluster, and the scripts of
``pages``, ``copies``, ``unfollows``, ``follow_pairs`` and ``statuses.get_status_fields``, which run on one server
only (pipelines take their place on a cluster).
"""

from __future__ import annotations

from timelines.store import (
    batch,
    bookmarks,
    conversations,
    copies,
    edits,
    fanout,
    follow_pairs,
    followed_tags,
    graph,
    health,
    idle,
    likes,
    lists,
    markers,
    messages,
    moderation,
    notifications,
    pages,
    privacy,
    profiles,
    pubsub,
    pulled,
    refill,
    reposts,
    search,
    stats,
    statuses,
    tags,
    timelines,
    unfollows,
    users,
    viewer_flags,
)

__all__ = [
    "batch",
    "bookmarks",
    "conversations",
    "copies",
    "edits",
    "fanout",
    "follow_pairs",
    "followed_tags",
    "graph",
    "health",
    "idle",
    "likes",
    "lists",
    "markers",
    "messages",
    "moderation",
    "notifications",
    "pages",
    "privacy",
    "profiles",
    "pubsub",
    "pulled",
    "refill",
    "reposts",
    "search",
    "stats",
    "statuses",
    "tags",
    "timelines",
    "unfollows",
    "users",
    "viewer_flags",
]

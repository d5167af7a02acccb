"""Every Redis key and channel of the social graph (book chapter 8), one module per concern.

The names are the book's, with the user, status or list id wrapped in braces: a Redis Cluster hash tag, so
every key of one user (or list, or status) hashes to one slot. Rule (DESIGN.md): an atomic step (MULTI or a
Lua script) touches keys of one slot only; a step spanning users is a sequence of idempotent single-slot
steps. Each submodule documents its part of the schema with ``redis-cli`` examples:

- ``keys.users``: ``user:{42}``, ``users:``, ``user:id:``;
- ``keys.statuses``: ``status:{9001}``, ``status:versions:{9001}``, ``status:id:``;
- ``keys.timelines``: ``profile:{42}``, ``home:{42}``, ``home:marker:{42}``;
- ``keys.graph``: ``followers:{42}``, ``following:{42}``;
- ``keys.lists``: ``list:{7}``, ``lists:{42}``, ``list:in:{7}``, ``list:out:{99}``, ``list:statuses:{7}``,
  ``list:id:``;
- ``keys.refill``: ``refill:home:{42}``, ``refill:list:statuses:{7}``;
- ``keys.conversations``: ``replies:{9001}``, ``thread:{9001}``;
- ``keys.messages``: ``conversation:{3}``, ``conversation:messages:{3}``, ``conversations:{42}``,
  ``conversations:unread:{42}``, ``messages:sent:{42}``, ``conversation:ids:``, ``conversation:id:``;
- ``keys.likes``: ``likes:{42}``, ``likers:{9001}``;
- ``keys.bookmarks``: ``bookmarks:{42}``;
- ``keys.reposts``: ``reposts:{9001}``, ``user:reposts:{42}``, ``home:reposts:{7}``, ``list:reposts:{3}``;
- ``keys.privacy``: ``follow:requests:{42}``, ``follow:requested:{7}``, ``blocks:{42}``, ``blocked:by:{7}``,
  ``mutes:{42}``, ``muted:by:{7}``;
- ``keys.notifications``: ``notifications:{42}``, ``notifications:read:{42}``, ``notification:id:``;
- ``keys.followed_tags``: ``followed:tags:{42}``, ``tag:followers:{redis}``;
- ``keys.tags``: ``tag:{redis}``, ``timeline:{local}``, ``trending:{tags}:<hour>``;
- ``keys.search``: ``search:{s3}:<word>``, ``search:users:``, ``search:tags:``;
- ``keys.moderation``: ``users:suspended``, ``users:limited``, ``stats:{stats}:<name>:<bucket>``;
- ``keys.idle``: ``seen:{seen3}``, ``idle:homes`` (idle timelines);
- ``keys.pulled``: ``pulled:{42}``, ``pulled:authors`` (hybrid fan-out);
- ``keys.channels``: the pub/sub channel of typed events, and the names of live timelines in the streaming hub's index.

Every function is re-exported here, so callers write ``keys.home_timeline(uid)``. Limits live in
``timelines.limits``.
"""

from __future__ import annotations

from timelines.keys.bookmarks import bookmarks_of
from timelines.keys.channels import STREAM_CHANNEL
from timelines.keys.conversations import replies, thread
from timelines.keys.followed_tags import followed_tags, tag_followers
from timelines.keys.graph import followers, following
from timelines.keys.idle import IDLE_FIELD, IDLE_HOMES_COUNTER, SEEN_FIELD, seen_shard
from timelines.keys.likes import likers, likes_of
from timelines.keys.lists import LIST_ID_COUNTER, list_members, list_timeline, listed_in, lists_of, user_list
from timelines.keys.messages import (
    CONVERSATION_ID_COUNTER,
    CONVERSATION_IDS,
    conversation,
    conversation_messages,
    conversations_of,
    conversations_unread,
    messages_sent,
)
from timelines.keys.moderation import LIMITED_USERS, SUSPENDED_USERS, stat
from timelines.keys.notifications import (
    NOTIFICATION_ID_COUNTER,
    notifications,
    notifications_read,
    notifications_unread,
)
from timelines.keys.privacy import blocked_by, blocks, follow_requested, follow_requests, muted_by, mutes
from timelines.keys.pulled import PULLED_AUTHORS, pulled_posts
from timelines.keys.refill import refill_run
from timelines.keys.reposts import home_reposts, list_reposts, reposters, user_reposts
from timelines.keys.search import SEARCH_TAGS, SEARCH_USERS, search_shard, search_word
from timelines.keys.statuses import STATUS_ID_COUNTER, status, status_versions
from timelines.keys.tags import LOCAL_TIMELINE, TRENDING_HASH_TAG, tag_timeline, trending_bucket, trending_hour
from timelines.keys.timelines import TIMELINES, home_marker, home_timeline, profile_held, profile_timeline, timeline
from timelines.keys.users import USER_ID_COUNTER, USERS_BY_LOGIN, user

__all__ = [
    "CONVERSATION_IDS",
    "CONVERSATION_ID_COUNTER",
    "IDLE_FIELD",
    "IDLE_HOMES_COUNTER",
    "LIMITED_USERS",
    "LIST_ID_COUNTER",
    "LOCAL_TIMELINE",
    "NOTIFICATION_ID_COUNTER",
    "PULLED_AUTHORS",
    "SEARCH_TAGS",
    "SEARCH_USERS",
    "SEEN_FIELD",
    "STATUS_ID_COUNTER",
    "STREAM_CHANNEL",
    "SUSPENDED_USERS",
    "TIMELINES",
    "TRENDING_HASH_TAG",
    "USERS_BY_LOGIN",
    "USER_ID_COUNTER",
    "blocked_by",
    "blocks",
    "bookmarks_of",
    "conversation",
    "conversation_messages",
    "conversations_of",
    "conversations_unread",
    "follow_requested",
    "follow_requests",
    "followed_tags",
    "followers",
    "following",
    "home_marker",
    "home_reposts",
    "home_timeline",
    "likers",
    "likes_of",
    "list_members",
    "list_reposts",
    "list_timeline",
    "listed_in",
    "lists_of",
    "messages_sent",
    "muted_by",
    "mutes",
    "notifications",
    "notifications_read",
    "notifications_unread",
    "profile_held",
    "profile_timeline",
    "pulled_posts",
    "refill_run",
    "replies",
    "reposters",
    "search_shard",
    "search_word",
    "seen_shard",
    "stat",
    "status",
    "status_versions",
    "tag_followers",
    "tag_timeline",
    "thread",
    "timeline",
    "trending_bucket",
    "trending_hour",
    "user",
    "user_list",
    "user_reposts",
]

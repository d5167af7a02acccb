"""Reads of the social graph (book 8.2 and 8.3), one module per concern: ``timelines`` (pages of home,
profile and list timelines), ``entries`` (what a viewer sees of a page of ids), ``status_cache`` (decoded
statuses kept per process), ``statuses``, ``history`` (the versions of an edited status), ``users``,
``follows``, ``suggestions``, ``lists``,
``conversations`` (threads), ``direct_messages`` (conversations of direct messages), ``likes``, ``bookmarks``,
``notifications``, ``privacy`` (follow requests, blocks, mutes), ``tags`` (tag timelines, the local timeline,
trending), ``reactions`` (who liked or reposted a post), ``search``, ``lookup`` (what an address or
``@login@domain`` names: the one read that may have federation fetch and store it first), ``moderation``
(account states) and, for the admin only, ``moderated_statuses`` (every post, as the moderators see it) and
``dashboard`` (activity and server gauges).

Selectors return plain records (``records.Status``, ``records.User``, ...) and never write. Whatever shows
statuses to a member goes through the per-recipient policy (``timelines.policy``). The public API is
re-exported here: ``selectors.get_status_messages(...)``.
"""

from __future__ import annotations

from timelines.selectors.bookmarks import BookmarkPage, get_bookmarks
from timelines.selectors.conversations import Thread, ThreadItem, get_replies, get_thread
from timelines.selectors.direct_messages import (
    Conversation,
    ConversationSummary,
    find_conversation,
    get_conversation,
    get_conversation_summary,
    get_conversations,
    get_unread_conversations,
)
from timelines.selectors.follows import (
    get_familiar_followers,
    get_followers,
    get_following,
    get_following_flags,
    get_following_ids,
    is_following,
)
from timelines.selectors.history import get_status_history
from timelines.selectors.likes import LikedPage, get_liked_statuses
from timelines.selectors.lists import (
    get_list_choices,
    get_list_member_ids,
    get_list_members,
    get_user_list,
    get_user_lists,
    is_list_member,
)
from timelines.selectors.lookup import Found, is_lookup, look_up, with_found
from timelines.selectors.markers import get_home_marker
from timelines.selectors.moderation import ACCOUNT_STATES, account_states, get_uids_in_state
from timelines.selectors.notifications import (
    Notification,
    NotificationGroup,
    get_header_counts,
    get_notifications,
    get_read_mark,
    get_unread_count,
    group_notifications,
)
from timelines.selectors.privacy import (
    Relationship,
    get_blocked_users,
    get_follow_request_count,
    get_follow_requests,
    get_muted_users,
    get_related_ids,
    get_relationship,
)
from timelines.selectors.reactions import get_likers, get_reposters
from timelines.selectors.search import search, search_people
from timelines.selectors.statuses import get_entry, get_status, status_exists
from timelines.selectors.suggestions import SUGGESTION_SCAN, get_suggested_users
from timelines.selectors.tags import get_local_timeline, get_tag_timeline, get_trending_tags
from timelines.selectors.timelines import (
    MAX_REFILL_READS,
    get_followed_pulled_authors,
    get_list_status_messages,
    get_status_messages,
)
from timelines.selectors.users import get_all_users, get_user, get_user_by_login, get_user_suspended, get_users

__all__ = [
    "ACCOUNT_STATES",
    "MAX_REFILL_READS",
    "SUGGESTION_SCAN",
    "BookmarkPage",
    "Conversation",
    "ConversationSummary",
    "Found",
    "LikedPage",
    "Notification",
    "NotificationGroup",
    "Relationship",
    "Thread",
    "ThreadItem",
    "account_states",
    "find_conversation",
    "get_all_users",
    "get_blocked_users",
    "get_bookmarks",
    "get_conversation",
    "get_conversation_summary",
    "get_conversations",
    "get_entry",
    "get_familiar_followers",
    "get_follow_request_count",
    "get_follow_requests",
    "get_followed_pulled_authors",
    "get_followers",
    "get_following",
    "get_following_flags",
    "get_following_ids",
    "get_header_counts",
    "get_home_marker",
    "get_liked_statuses",
    "get_likers",
    "get_list_choices",
    "get_list_member_ids",
    "get_list_members",
    "get_list_status_messages",
    "get_local_timeline",
    "get_muted_users",
    "get_notifications",
    "get_read_mark",
    "get_related_ids",
    "get_relationship",
    "get_replies",
    "get_reposters",
    "get_status",
    "get_status_history",
    "get_status_messages",
    "get_suggested_users",
    "get_tag_timeline",
    "get_thread",
    "get_trending_tags",
    "get_uids_in_state",
    "get_unread_conversations",
    "get_unread_count",
    "get_user",
    "get_user_by_login",
    "get_user_list",
    "get_user_lists",
    "get_user_suspended",
    "get_users",
    "group_notifications",
    "is_following",
    "is_list_member",
    "is_lookup",
    "look_up",
    "search",
    "search_people",
    "status_exists",
    "with_found",
]

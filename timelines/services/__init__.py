"""Writes to the social graph (book 8.1 to 8.4 and the chapter's exercises), one module per concern.

- ``users``: create and discard users;
- ``statuses``: post statuses and replies, and delete them (``cleanup`` cleans what hangs on a deleted post);
  ``edits``: edit their text, keeping every version;
- ``reposts`` and ``likes``; ``bookmarks`` (a person's private list of saved posts);
- ``direct_messages``: conversations of direct messages (``send_message`` is in ``statuses``);
- ``notifications``: mentions, replies, reposts, likes and follows, in the feed of whom they concern (and
  dismissing or clearing them);
- ``delivery``: the one pipeline that takes a status to its audiences, through the per-recipient policy;
- ``follows``: follow and unfollow, and follow requests to private accounts;
- ``privacy``: private accounts, approving requests, blocks and mutes;
- ``lists``: named lists of users;
- ``refill``: copying, removing, refilling and rebuilding timelines;
- ``discovery``: tag timelines, trending, the search indexes; ``profiles``: editing a profile;
- ``publishing``: typed events, after the write.

Each service validates its input, makes the whole change through ``store`` and only then publishes its event.
A change that spans users (a follow, a delivery, a list membership) is a sequence of idempotent single-slot
steps (DESIGN.md), so a retry completes an interrupted change instead of doubling it. Arguments are
keyword-only so two user ids cannot be swapped by accident; the names and keywords are the book's, including
those of its exercise solutions. The public API is re-exported here: ``services.post_status(...)``.
"""

from __future__ import annotations

from timelines.services.bookmarks import bookmark_status, unbookmark_status
from timelines.services.delivery import syndicate_status
from timelines.services.direct_messages import mark_conversation_read, remove_conversation
from timelines.services.edits import edit_status
from timelines.services.follows import REQUESTED, follow_user, unfollow_user, withdraw_follow_request
from timelines.services.likes import like_status, unlike_status
from timelines.services.lists import (
    create_user_list,
    delete_user_list,
    follow_user_list,
    forget_user_list,
    rename_user_list,
    unfollow_user_list,
)
from timelines.services.markers import set_home_marker
from timelines.services.notifications import (
    clear_notifications,
    dismiss_notification,
    mark_notifications_read,
)
from timelines.services.privacy import (
    approve_follow_request,
    block_user,
    mute_user,
    reject_follow_request,
    set_private,
    unblock_user,
    unmute_user,
)
from timelines.services.profiles import update_profile
from timelines.services.refill import RebuildResult, RefillStep, rebuild_timeline, refill_timeline, request_refill
from timelines.services.reposts import repost_status, undo_repost
from timelines.services.statuses import create_status, delete_status, post_status, send_message
from timelines.services.users import create_user, discard_user
from timelines.services.withdrawal import clean_timelines
from timelines.validation import clean_list_name, clean_location, clean_login, clean_message, clean_name

__all__ = [
    "REQUESTED",
    "RebuildResult",
    "RefillStep",
    "approve_follow_request",
    "block_user",
    "bookmark_status",
    "clean_list_name",
    "clean_location",
    "clean_login",
    "clean_message",
    "clean_name",
    "clean_timelines",
    "clear_notifications",
    "create_status",
    "create_user",
    "create_user_list",
    "delete_status",
    "delete_user_list",
    "discard_user",
    "dismiss_notification",
    "edit_status",
    "follow_user",
    "follow_user_list",
    "forget_user_list",
    "like_status",
    "mark_conversation_read",
    "mark_notifications_read",
    "mute_user",
    "post_status",
    "rebuild_timeline",
    "refill_timeline",
    "reject_follow_request",
    "remove_conversation",
    "rename_user_list",
    "repost_status",
    "request_refill",
    "send_message",
    "set_home_marker",
    "set_private",
    "syndicate_status",
    "unblock_user",
    "unbookmark_status",
    "undo_repost",
    "unfollow_user",
    "unfollow_user_list",
    "unlike_status",
    "unmute_user",
    "update_profile",
    "withdraw_follow_request",
]

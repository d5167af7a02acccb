"""Federation's side of ``timelines.hooks``: registered once at start-up (``FederationConfig.ready``)."""

from __future__ import annotations

from federation.services import actor_changes, actors, lookup, mentions, outbound, outbound_moderation, replies
from timelines import hooks


def register_all() -> None:
    hooks.register("is_remote", actors.is_remote)
    hooks.register("remote_follow_requested", outbound.remote_follow_requested)
    hooks.register("remote_unfollowed", outbound.remote_unfollowed)
    hooks.register("follower_removed", outbound.follower_removed)
    hooks.register("status_delivered", outbound.status_delivered)
    hooks.register("remote_audience_key", outbound.remote_audience_key)
    hooks.register("status_deleted", outbound.status_deleted)
    hooks.register("status_edited", outbound.status_edited)
    hooks.register("status_liked", outbound.status_liked)
    hooks.register("resolve_account", lookup.resolve_account_uid)
    hooks.register("resolve_url", lookup.resolve_url)
    hooks.register("remote_thread_opened", replies.thread_opened)
    hooks.register("remote_replies_pending", replies.fetch_pending)
    hooks.register("follow_request_answered", outbound.follow_request_answered)
    hooks.register("look_up_accounts", mentions.look_up_accounts)
    hooks.register("profile_changed", actor_changes.profile_changed)
    hooks.register("account_deleted", actor_changes.account_deleted)
    hooks.register("remote_blocked", outbound_moderation.remote_blocked)
    hooks.register("forward_report", outbound_moderation.forward_report)

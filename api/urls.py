"""The client API's routes: Mastodon's paths under ``/api/v1/`` and ``/api/v2/``, OAuth under ``/oauth/``, and the
server metadata under ``/.well-known/``. Each path also answers with a trailing slash; ids are matched loosely
(``[^/]+``) so that a bad one reaches the view and gets Mastodon's ``404 Record not found`` in JSON."""

from __future__ import annotations

from django.urls import path, re_path

from api.views import (
    account_search,
    accounts,
    applications,
    bookmarks,
    conversations,
    discovery,
    favourites,
    instance,
    lists,
    markers,
    media,
    notifications,
    oauth,
    profile,
    registration,
    relations,
    reports,
    schema,
    search,
    statuses,
    tags,
    timelines,
)

app_name = "api"

ID = r"(?P<{}>[^/]+)"


def route(pattern: str, view, name: str):  # type: ignore[no-untyped-def]
    return re_path(rf"^{pattern}/?$", view, name=name)


# Django tries the routes in order, and every pattern here is anchored and names a distinct path, so the order only
# decides how many are tried first: the timelines clients poll lead (issue 20: the home's route came sixtieth).
urlpatterns = [
    route(r"api/v1/timelines/home", timelines.home, "home"),
    route(r"api/v1/timelines/public", timelines.public, "public"),
    route(rf"api/v1/timelines/tag/{ID.format('name')}", timelines.tag, "tag"),
    route(r"\.well-known/oauth-authorization-server", oauth.server_metadata, "server_metadata"),
    route(r"\.well-known/nodeinfo", discovery.nodeinfo_links, "nodeinfo_links"),
    route(r"nodeinfo/2\.0", discovery.nodeinfo, "nodeinfo"),
    route(r"\.well-known/webfinger", discovery.webfinger, "webfinger"),
    route(r"oauth/authorize", oauth.authorize, "authorize"),
    path("settings/applications", applications.applications, name="applications"),
    path(
        "settings/applications/<int:application_id>/revoke", applications.revoke_application, name="revoke_application"
    ),
    route(r"oauth/token", oauth.token, "token"),
    route(r"oauth/revoke", oauth.revoke, "revoke"),
    route(r"api/openapi\.json", schema.openapi, "openapi"),
    route(r"api/v1/apps", oauth.apps, "apps"),
    route(r"api/v1/apps/verify_credentials", oauth.verify_app, "verify_app"),
    route(r"api/v1/instance", instance.instance_v1, "instance_v1"),
    route(r"api/v2/instance", instance.instance_v2, "instance_v2"),
    route(r"api/v1/custom_emojis", instance.empty_list, "custom_emojis"),
    route(r"api/v1/announcements", instance.empty_list, "announcements"),
    route(r"api/v1/filters", instance.empty_list, "filters_v1"),
    route(r"api/v2/filters", instance.empty_list, "filters_v2"),
    route(r"api/v1/accounts", registration.register, "register"),
    route(r"api/v1/accounts/verify_credentials", accounts.verify_credentials, "verify_credentials"),
    route(r"api/v1/accounts/update_credentials", profile.update_credentials, "update_credentials"),
    route(r"api/v1/accounts/lookup", accounts.lookup, "account_lookup"),
    route(r"api/v1/accounts/search", account_search.search, "account_search"),
    route(r"api/v1/accounts/familiar_followers", account_search.familiar_followers, "familiar_followers"),
    route(r"api/v1/accounts/relationships", accounts.relationships, "relationships"),
    route(rf"api/v1/accounts/{ID.format('account_id')}", accounts.detail, "account"),
    route(rf"api/v1/accounts/{ID.format('account_id')}/statuses", accounts.account_statuses, "account_statuses"),
    route(rf"api/v1/accounts/{ID.format('account_id')}/followers", accounts.followers, "followers"),
    route(rf"api/v1/accounts/{ID.format('account_id')}/following", accounts.following, "following"),
    route(rf"api/v1/accounts/{ID.format('account_id')}/follow", accounts.follow, "follow"),
    route(rf"api/v1/accounts/{ID.format('account_id')}/unfollow", accounts.unfollow, "unfollow"),
    route(rf"api/v1/accounts/{ID.format('account_id')}/block", relations.block, "block"),
    route(rf"api/v1/accounts/{ID.format('account_id')}/unblock", relations.unblock, "unblock"),
    route(rf"api/v1/accounts/{ID.format('account_id')}/mute", relations.mute, "mute"),
    route(rf"api/v1/accounts/{ID.format('account_id')}/unmute", relations.unmute, "unmute"),
    route(r"api/v1/blocks", relations.blocks, "blocks"),
    route(r"api/v1/mutes", relations.mutes, "mutes"),
    route(r"api/v1/media", media.upload_v1, "media_v1"),
    route(r"api/v2/media", media.upload_v2, "media_v2"),
    route(rf"api/v1/media/{ID.format('media_id')}", media.detail, "media"),
    route(r"api/v1/statuses", statuses.create, "statuses"),
    route(rf"api/v1/statuses/{ID.format('status_id')}", statuses.detail, "status"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/context", statuses.context, "context"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/history", statuses.history, "status_history"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/source", statuses.source, "status_source"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/favourite", statuses.favourite, "favourite"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/favourited_by", statuses.favourited_by, "favourited_by"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/reblogged_by", statuses.reblogged_by, "reblogged_by"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/unfavourite", statuses.unfavourite, "unfavourite"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/reblog", statuses.reblog, "reblog"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/unreblog", statuses.unreblog, "unreblog"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/bookmark", bookmarks.bookmark, "bookmark"),
    route(rf"api/v1/statuses/{ID.format('status_id')}/unbookmark", bookmarks.unbookmark, "unbookmark"),
    route(r"api/v1/bookmarks", bookmarks.index, "bookmarks"),
    route(r"api/v1/favourites", favourites.index, "favourites"),
    route(rf"api/v1/tags/{ID.format('name')}", tags.detail, "tag_detail"),
    route(rf"api/v1/tags/{ID.format('name')}/follow", tags.follow, "follow_tag"),
    route(rf"api/v1/tags/{ID.format('name')}/unfollow", tags.unfollow, "unfollow_tag"),
    route(r"api/v1/followed_tags", tags.followed_tags, "followed_tags"),
    route(r"api/v1/conversations", conversations.index, "conversations"),
    route(rf"api/v1/conversations/{ID.format('conversation_id')}", conversations.remove, "conversation"),
    route(rf"api/v1/conversations/{ID.format('conversation_id')}/read", conversations.read, "conversation_read"),
    route(r"api/v1/notifications", notifications.index, "notifications"),
    route(r"api/v1/notifications/unread_count", notifications.unread_count, "unread_count"),
    route(r"api/v1/notifications/clear", notifications.clear, "clear_notifications"),
    route(rf"api/v1/notifications/{ID.format('notification_id')}", notifications.detail, "notification"),
    route(
        rf"api/v1/notifications/{ID.format('notification_id')}/dismiss", notifications.dismiss, "dismiss_notification"
    ),
    route(r"api/v2/search", search.search, "search"),
    route(r"api/v1/preferences", profile.preferences, "preferences"),
    route(r"api/v1/markers", markers.markers, "markers"),
    route(r"api/v1/follow_requests", relations.follow_requests, "follow_requests"),
    route(
        rf"api/v1/follow_requests/{ID.format('account_id')}/authorize",
        relations.authorize_follow_request,
        "authorize_follow_request",
    ),
    route(
        rf"api/v1/follow_requests/{ID.format('account_id')}/reject",
        relations.reject_follow_request,
        "reject_follow_request",
    ),
    route(r"api/v1/reports", reports.create, "reports"),
    route(r"api/v1/lists", lists.index, "lists"),
    route(rf"api/v1/lists/{ID.format('list_id')}", lists.detail, "list"),
    route(rf"api/v1/lists/{ID.format('list_id')}/accounts", lists.members, "list_accounts"),
    route(rf"api/v1/timelines/list/{ID.format('list_id')}", lists.timeline, "list_timeline"),
]

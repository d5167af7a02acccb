from django.urls import path, re_path

from timelines import limits, text
from timelines.views import (
    conversations,
    direct_messages,
    discovery,
    edits,
    follows,
    home,
    likes,
    lists,
    notifications,
    privacy,
    profile_settings,
    profiles,
    reactions,
    statuses,
)

app_name = "timelines"

# A local login, or another server's account as login@domain (issue 22: its profile, Follow and posts).
LOGIN = rf"@(?P<login>[A-Za-z0-9_]{{1,{limits.MAX_LOGIN_LENGTH}}}(?:@[A-Za-z0-9.-]{{1,253}}(?::[0-9]{{1,5}})?)?)"

urlpatterns = [
    path("", home.home, name="home"),
    path("compose", home.compose, name="compose"),
    path("statuses/<int:status_id>/delete", statuses.delete, name="delete"),
    path("statuses/<int:status_id>/like", reactions.like, name="like"),
    path("statuses/<int:status_id>/unlike", reactions.unlike, name="unlike"),
    path("statuses/<int:status_id>/repost", reactions.repost, name="repost"),
    path("statuses/<int:status_id>/unrepost", reactions.unrepost, name="unrepost"),
    path("notifications", notifications.notifications, name="notifications"),
    path("notifications/read", notifications.mark_read, name="notifications_read"),
    path("messages", direct_messages.inbox, name="messages"),
    path("messages/<int:conversation_id>", direct_messages.conversation, name="conversation"),
    path("messages/<int:conversation_id>/read", direct_messages.mark_read, name="conversation_read"),
    path("follow-requests", privacy.follow_requests, name="follow_requests"),
    re_path(
        rf"^follow-requests/{LOGIN}/(?P<answer>approve|reject)$",
        privacy.answer_follow_request,
        name="answer_follow_request",
    ),
    path("settings/blocks", privacy.blocks, name="blocks"),
    path("settings/mutes", privacy.mutes, name="mutes"),
    re_path(rf"^{LOGIN}$", profiles.profile, name="profile"),
    re_path(rf"^{LOGIN}/(?P<status_id>[0-9]{{1,16}})$", conversations.status_page, name="status"),
    re_path(rf"^{LOGIN}/(?P<status_id>[0-9]{{1,16}})/reply$", conversations.reply, name="reply"),
    re_path(rf"^{LOGIN}/(?P<status_id>[0-9]{{1,16}})/edit$", edits.edit, name="edit"),
    re_path(rf"^{LOGIN}/(?P<status_id>[0-9]{{1,16}})/history$", edits.history, name="history"),
    re_path(rf"^{LOGIN}/likes$", likes.likes, name="likes"),
    re_path(rf"^{LOGIN}/followers$", profiles.followers, name="followers"),
    re_path(rf"^{LOGIN}/following$", profiles.following, name="following"),
    re_path(rf"^{LOGIN}/follow$", follows.follow, name="follow"),
    re_path(rf"^{LOGIN}/unfollow$", follows.unfollow, name="unfollow"),
    re_path(rf"^{LOGIN}/message$", direct_messages.new, name="message_new"),
    re_path(rf"^{LOGIN}/block$", privacy.block, name="block"),
    re_path(rf"^{LOGIN}/unblock$", privacy.unblock, name="unblock"),
    re_path(rf"^{LOGIN}/mute$", privacy.mute, name="mute"),
    re_path(rf"^{LOGIN}/unmute$", privacy.unmute, name="unmute"),
    re_path(rf"^{LOGIN}/lists$", lists.user_lists, name="user_lists"),
    re_path(rf"^{LOGIN}/lists/pick$", lists.pick, name="list_pick"),
    path("lists/create", lists.create, name="list_create"),
    path("lists/<int:list_id>", lists.detail, name="list_detail"),
    path("lists/<int:list_id>/members", lists.members, name="list_members"),
    path("lists/<int:list_id>/members/add", lists.add_member, name="list_add_member"),
    path("lists/<int:list_id>/members/remove", lists.remove_member, name="list_remove_member"),
    path("lists/<int:list_id>/edit", lists.edit, name="list_edit"),
    path("lists/<int:list_id>/delete", lists.delete, name="list_delete"),
    re_path(rf"^tags/(?P<tag>\w{{1,{text.MAX_TAG_LENGTH}}})$", discovery.tag, name="tag"),
    path("search", discovery.search, name="search"),
    path("settings/profile", profile_settings.edit, name="profile_settings"),
]

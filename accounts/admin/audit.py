"""The audit log in the admin: Django's ``LogEntry``, where every moderation action is written
(``accounts.audit``) with who, what, whom, the reason and when. Read-only for everyone, superusers included:
no add, change or delete. The same entries show in the admin's "Recent actions" and in each account's
history page."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.models import LogEntry
from django.http import HttpRequest
from django.urls import NoReverseMatch
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.admin.search import BoundedSearch


@admin.register(LogEntry)
class AuditLogAdmin(BoundedSearch, admin.ModelAdmin):
    list_display = ("action_time", "user", "action_flag", "target", "message")
    list_filter = ("action_flag", "user", "content_type")
    search_fields = ("object_repr", "change_message", "user__username")
    date_hierarchy = "action_time"
    list_select_related = ("user", "content_type")
    fields = ("action_time", "user", "action_flag", "content_type", "object_id", "object_repr", "message")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: LogEntry | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: LogEntry | None = None) -> bool:
        return False

    @admin.display(description="whom")
    def target(self, obj: LogEntry) -> SafeString | str:
        try:
            url = obj.get_admin_url()
        except NoReverseMatch:
            url = ""
        return format_html('<a href="{}">{}</a>', url, obj.object_repr) if url else obj.object_repr

    @admin.display(description="what and why")
    def message(self, obj: LogEntry) -> str:
        return obj.get_change_message()

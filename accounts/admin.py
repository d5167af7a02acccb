"""Accounts and reports in Django admin."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.http import HttpRequest

from accounts.models import Report, User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "uid", "email", "is_active", "is_staff", "date_joined")
    readonly_fields = ("uid",)
    fieldsets = (*DjangoUserAdmin.fieldsets, ("Social profile", {"fields": ("uid",)}))


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """A read-only view of reports until the moderation queue (issue 12) replaces it: reports are written by
    ``accounts.reports`` only, so merging and resolving keep their rules."""

    list_display = ("id", "reporter", "reported", "reason", "state", "created")
    list_filter = ("state", "reason")
    list_select_related = ("reporter", "reported")
    readonly_fields = (
        "reporter",
        "reported",
        "reason",
        "comment",
        "status_ids",
        "state",
        "created",
        "updated",
        "resolved_at",
        "resolved_by",
        "resolution_note",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Report | None = None) -> bool:
        return False

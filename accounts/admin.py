from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "uid", "email", "is_active", "is_staff", "date_joined")
    readonly_fields = ("uid",)
    fieldsets = (*DjangoUserAdmin.fieldsets, ("Social profile", {"fields": ("uid",)}))

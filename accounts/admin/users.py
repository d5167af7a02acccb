"""Accounts in the admin: Django's user admin, whose list also shows what Redis holds about each account
(posts, followers, moderation state) and their open reports, filtered by state, with the moderators' actions
Suspend, Unsuspend, Limit, Unlimit and Delete account, each with a reason (``accounts.moderation``).

Moderators see the list and act, but cannot add, change or delete accounts (they hold ``view_user`` only,
``accounts.permissions``). Django's own "Delete selected" is not offered: it would delete the SQL account
only; Delete account removes the person from Redis and SQL alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import Count, Model, Q, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from accounts import moderation
from accounts.admin.actions import Step, reason_step
from accounts.admin.rows import RedisRowsChangeList
from accounts.admin.search import BoundedSearch
from accounts.models import Report, User
from timelines import selectors

ACTIVE, LIMITED, SUSPENDED = "active", "limited", "suspended"


@dataclass(frozen=True, slots=True)
class AccountRow:
    posts: int
    followers: int
    state: str


class AccountStateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [(ACTIVE, "Active"), (LIMITED, "Limited"), (SUSPENDED, "Suspended")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet | None:
        value = self.value()
        if value in (LIMITED, SUSPENDED):
            return queryset.filter(uid__in=selectors.get_uids_in_state(value))
        if value == ACTIVE:
            moderated = selectors.get_uids_in_state(LIMITED) | selectors.get_uids_in_state(SUSPENDED)
            return queryset.exclude(uid__in=moderated)
        return None


SUSPEND = Step("suspend", "Suspend accounts", "Suspend", "Suspended {count} account(s).")
UNSUSPEND = Step("unsuspend", "Unsuspend accounts", "Unsuspend", "Unsuspended {count} account(s).")
LIMIT = Step("limit", "Limit accounts", "Limit", "Limited {count} account(s).")
UNLIMIT = Step("unlimit", "Unlimit accounts", "Unlimit", "Unlimited {count} account(s).")
DELETE = Step(
    "delete_account",
    "Delete accounts",
    "Delete",
    "Deleted {count} account(s).",
    confirm="Everything of these accounts will be removed from Redis and SQL: posts, followers, lists. "
    "This cannot be undone.",
)


def _account_action(
    step: Step, act: Callable[..., object], description: str, permission: str
) -> Callable[[Any, HttpRequest, QuerySet], TemplateResponse | None]:
    """An admin action that asks for a reason (``step``), then calls ``act`` (an ``accounts.moderation``
    service) for each selected account, as the signed-in moderator."""

    @admin.action(description=description, permissions=[permission])
    def action(model_admin: Any, request: HttpRequest, queryset: QuerySet) -> TemplateResponse | None:
        return reason_step(
            model_admin,
            request,
            queryset,
            step,
            lambda user, reason: act(moderator=request.user, user=user, reason=reason),
        )

    action.__name__ = step.action
    return action


@admin.register(User)
class UserAdmin(BoundedSearch, DjangoUserAdmin):
    list_display = (
        "username",
        "uid",
        "date_joined",
        "posts",
        "followers",
        "open_reports",
        "state",
        "is_staff",
    )
    list_filter = (AccountStateFilter, "is_staff", "is_superuser", "is_active")
    readonly_fields = ("uid",)
    fieldsets = (*DjangoUserAdmin.fieldsets, ("Social profile", {"fields": ("uid",)}))
    actions = ("suspend", "unsuspend", "limit", "unlimit", "delete_account")

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .annotate(open_report_count=Count("reports_received", filter=Q(reports_received__state=Report.State.OPEN)))
        )

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[RedisRowsChangeList]:
        return RedisRowsChangeList

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request: HttpRequest, obj: User | None = None) -> bool:
        # Django's own delete (the change page's Delete, "delete selected") would remove the SQL account and leave
        # the person's posts and graph in Redis: accounts are deleted by the Delete account action only, which
        # erases both and is audited.
        return False

    def attach_redis_rows(self, rows: Sequence[Model]) -> None:
        """Each account's posts, followers and state: two round trips for the page."""
        uids = [row.uid for row in rows if row.uid is not None]  # type: ignore[attr-defined]
        profiles = {user.id: user for user in selectors.get_users(uids=uids)}
        states = moderation.account_states(uids)
        for row in rows:
            profile = profiles.get(row.uid)  # type: ignore[attr-defined]
            if profile is not None:
                row.redis_row = AccountRow(profile.posts, profile.followers, states.get(profile.id, ACTIVE))  # type: ignore[attr-defined]

    @staticmethod
    def _row(obj: User) -> AccountRow | None:
        return getattr(obj, "redis_row", None)

    @admin.display(description="posts")
    def posts(self, obj: User) -> int | str:
        row = self._row(obj)
        return row.posts if row else "-"

    @admin.display(description="followers")
    def followers(self, obj: User) -> int | str:
        row = self._row(obj)
        return row.followers if row else "-"

    @admin.display(description="open reports", ordering="open_report_count")
    def open_reports(self, obj: User) -> int:
        return getattr(obj, "open_report_count", 0)

    @admin.display(description="state")
    def state(self, obj: User) -> str:
        row = self._row(obj)
        return row.state if row else "-"

    # --- permissions of the actions (accounts.permissions) ---

    def has_suspend_account_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.suspend_account")

    def has_limit_account_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.limit_account")

    def has_delete_account_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.delete_account")

    # --- the actions ---

    suspend = _account_action(SUSPEND, moderation.suspend, "Suspend selected accounts", "suspend_account")
    unsuspend = _account_action(UNSUSPEND, moderation.unsuspend, "Unsuspend selected accounts", "suspend_account")
    limit = _account_action(LIMIT, moderation.limit, "Limit selected accounts", "limit_account")
    unlimit = _account_action(UNLIMIT, moderation.unlimit, "Unlimit selected accounts", "limit_account")
    delete_account = _account_action(
        DELETE, moderation.delete_account, "Delete selected accounts (asks twice)", "delete_account"
    )

"""Other servers' accounts in the admin (**Remote accounts**): each with its posts, followers here and moderation
state read from Redis for the whole page at once, filtered by state or searched by name or domain, with the
actions Suspend, Unsuspend, Limit and Unlimit, each asking for a reason (``federation.services.remote_moderation``).
Read-only otherwise: they are their servers' to change. Whoever may view local accounts may view these."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse

from accounts.admin.actions import Step, reason_step
from accounts.admin.rows import RedisRowsChangeList
from accounts.admin.users import LIMIT, SUSPEND, UNLIMIT, UNSUSPEND, AccountRow, AccountStateFilter
from federation.models import RemoteActor
from federation.services import remote_moderation
from timelines import selectors
from timelines.selectors.moderation import ACTIVE, account_states


def _action(step: Step, name: str, permission: str) -> Callable[[Any, HttpRequest, QuerySet], TemplateResponse | None]:
    @admin.action(description=f"{step.button} selected accounts", permissions=[permission])
    def action(model_admin: Any, request: HttpRequest, queryset: QuerySet) -> TemplateResponse | None:
        return reason_step(
            model_admin,
            request,
            queryset,
            step,
            lambda actor, reason: remote_moderation.act(
                moderator=request.user,  # type: ignore[arg-type]
                actor=actor,  # type: ignore[arg-type]
                action=name,
                reason=reason,
            ),
        )

    action.__name__ = name
    return action


@admin.register(RemoteActor)
class RemoteAccountAdmin(admin.ModelAdmin):
    list_display = ("acct", "domain", "posts", "followers", "state", "fetched")
    list_filter = (AccountStateFilter,)
    search_fields = ("username", "domain")
    ordering = ("domain", "username")
    fields = ("uri", "username", "domain", "url", "inbox", "shared_inbox", "fetched", "domain_flag")
    readonly_fields = fields
    actions = ("suspend", "unsuspend", "limit", "unlimit")

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[RedisRowsChangeList]:
        return RedisRowsChangeList

    def attach_redis_rows(self, rows: Sequence[Model]) -> None:
        uids = [row.uid for row in rows]  # type: ignore[attr-defined]
        profiles = {user.id: user for user in selectors.get_users(uids=uids)}
        states = account_states(uids)
        for row in rows:
            profile = profiles.get(row.uid)  # type: ignore[attr-defined]
            if profile is not None:
                row.redis_row = AccountRow(profile.posts, profile.followers, states.get(profile.id, ACTIVE))  # type: ignore[attr-defined]

    @staticmethod
    def _row(obj: RemoteActor) -> AccountRow | None:
        return getattr(obj, "redis_row", None)

    @admin.display(description="account", ordering="username")
    def acct(self, obj: RemoteActor) -> str:
        return f"{obj.username}@{obj.domain}"

    @admin.display(description="posts here")
    def posts(self, obj: RemoteActor) -> int | str:
        row = self._row(obj)
        return row.posts if row else "-"

    @admin.display(description="followers here")
    def followers(self, obj: RemoteActor) -> int | str:
        row = self._row(obj)
        return row.followers if row else "-"

    @admin.display(description="state")
    def state(self, obj: RemoteActor) -> str:
        row = self._row(obj)
        return row.state if row else "-"

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("accounts.view_user") or super().has_view_permission(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_suspend_account_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.suspend_account")

    def has_limit_account_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.limit_account")

    suspend = _action(SUSPEND, "suspend", "suspend_account")
    unsuspend = _action(UNSUSPEND, "unsuspend", "suspend_account")
    limit = _action(LIMIT, "limit", "limit_account")
    unlimit = _action(UNLIMIT, "unlimit", "limit_account")

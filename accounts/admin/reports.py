"""The reports queue in the admin: open reports first, newest first, with the reporter, the reported account,
the reason and comment and the reported posts' text (read from Redis for the whole page at once); filters
open/resolved, reason and reported account; actions Resolve, Remove reported posts, Limit account and Suspend
account, each with a reason or resolution note (``accounts.moderation``).

Acting on the account or its posts resolves the report too, with the reason as its note, as Mastodon's
report actions do: the reporter is told it was dealt with. Reports stay read-only here: ``accounts.reports``
writes them, so merging and resolving keep their rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from accounts import moderation
from accounts.admin.actions import Step, reason_step
from accounts.admin.rows import RedisRowsChangeList
from accounts.admin.search import BoundedSearch
from accounts.exceptions import ModerationError
from accounts.models import Report
from timelines.records import Status
from timelines.selectors import moderated_statuses

RESOLVE = Step(
    "resolve",
    "Resolve reports",
    "Resolve",
    "Resolved {count} report(s).",
    label="Resolution note",
    help_text="Required. Written into the audit log; the reporter is told the report was resolved.",
    unchanged="{count} already resolved, left as they were.",
)
REMOVE_POSTS = Step("remove_posts", "Remove reported posts", "Remove posts", "Removed the posts of {count} report(s).")
LIMIT = Step("limit_account", "Limit reported accounts", "Limit", "Limited the accounts of {count} report(s).")
SUSPEND = Step(
    "suspend_account", "Suspend reported accounts", "Suspend", "Suspended the accounts of {count} report(s)."
)

EXCERPT_CHARS = 80


def _post_link(status: Status) -> str:
    """The post's page on the site."""
    return reverse("timelines:status", kwargs={"login": status.login, "status_id": status.id})


@admin.register(Report)
class ReportAdmin(BoundedSearch, admin.ModelAdmin):
    list_display = (
        "id",
        "state",
        "reason",
        "reporter",
        "reported_account",
        "comment_excerpt",
        "reported_post_texts",
        "created",
    )
    list_display_links = ("id",)
    list_filter = ("state", "reason", ("reported", admin.RelatedOnlyFieldListFilter))
    list_select_related = ("reporter", "reported")
    search_fields = ("reported__username", "reported_acct", "reporter__username", "comment")
    actions = ("resolve", "remove_posts", "limit_account", "suspend_account")
    fields = (
        "reporter",
        "reported_account",
        "forwarded_to",
        "reason",
        "comment",
        "reported_posts",
        "state",
        "created",
        "updated",
        "resolved_at",
        "resolved_by",
        "resolution_note",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Report | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Report | None = None) -> bool:
        return False

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[RedisRowsChangeList]:
        return RedisRowsChangeList

    def attach_redis_rows(self, rows: Sequence[Model]) -> None:
        """The reported posts of the whole page, read in one round trip."""
        ids = {int(status_id) for row in rows for status_id in row.status_ids}  # type: ignore[attr-defined]
        found = moderated_statuses.get_statuses_by_id(status_ids=sorted(ids))
        for row in rows:
            row.reported_statuses = [(int(i), found.get(int(i))) for i in row.status_ids]  # type: ignore[attr-defined]

    @admin.display(description="reported", ordering="reported__username")
    def reported_account(self, obj: Report) -> str:
        """The reported account: a username here, ``@login@domain`` for another server's account."""
        return obj.reported_name

    @admin.display(description="comment")
    def comment_excerpt(self, obj: Report) -> str:
        return Truncator(obj.comment).chars(EXCERPT_CHARS)

    @admin.display(description="reported posts")
    def reported_post_texts(self, obj: Report) -> SafeString | str:
        statuses = getattr(obj, "reported_statuses", None)
        if statuses is None:
            return self.reported_posts(obj)
        return _post_list(statuses, excerpt=True)

    @admin.display(description="reported posts")
    def reported_posts(self, obj: Report) -> SafeString | str:
        found = moderated_statuses.get_statuses_by_id(status_ids=[int(i) for i in obj.status_ids])
        return _post_list([(int(i), found.get(int(i))) for i in obj.status_ids], excerpt=False)

    # --- permissions of the actions (accounts.permissions) ---

    def has_resolve_report_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.resolve_report")

    def has_remove_post_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.remove_post")

    def has_limit_account_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.limit_account")

    def has_suspend_account_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("accounts.suspend_account")

    # --- the actions ---

    @admin.action(description="Resolve selected reports", permissions=["resolve_report"])
    def resolve(self, request: HttpRequest, queryset: QuerySet) -> TemplateResponse | None:
        return reason_step(
            self,
            request,
            queryset,
            RESOLVE,
            lambda report, note: moderation.resolve_report(moderator=request.user, report=report, note=note),
        )

    @admin.action(description="Remove reported posts", permissions=["remove_post"])
    def remove_posts(self, request: HttpRequest, queryset: QuerySet) -> TemplateResponse | None:
        def apply(report: Report, reason: str) -> bool:
            moderation.remove_reported_posts(moderator=request.user, report=report, reason=reason)
            self._resolve_after(request, report, f"Removed the reported posts: {reason}")
            return True

        return reason_step(self, request, queryset, REMOVE_POSTS, apply)

    @admin.action(description="Limit reported accounts", permissions=["limit_account"])
    def limit_account(self, request: HttpRequest, queryset: QuerySet) -> TemplateResponse | None:
        def apply(report: Report, reason: str) -> bool:
            _require_local(report)
            moderation.limit(moderator=request.user, user=report.reported, reason=reason)
            self._resolve_after(request, report, f"Limited the account: {reason}")
            return True

        return reason_step(self, request, queryset, LIMIT, apply)

    @admin.action(description="Suspend reported accounts", permissions=["suspend_account"])
    def suspend_account(self, request: HttpRequest, queryset: QuerySet) -> TemplateResponse | None:
        def apply(report: Report, reason: str) -> bool:
            _require_local(report)
            moderation.suspend(moderator=request.user, user=report.reported, reason=reason)
            self._resolve_after(request, report, f"Suspended the account: {reason}")
            return True

        return reason_step(self, request, queryset, SUSPEND, apply)

    @staticmethod
    def _resolve_after(request: HttpRequest, report: Report, note: str) -> None:
        if report.state == Report.State.OPEN and request.user.has_perm("accounts.resolve_report"):
            moderation.resolve_report(moderator=request.user, report=report, note=note)


REMOTE_ACCOUNT_ACTION = "{account} is another server's account: limit or suspend it from its Federation page."


def _require_local(report: Report) -> None:
    """Limit and Suspend here act on a local account; a remote one's flags are the Federation pages' actions."""
    if report.reported is None:
        raise ModerationError(REMOTE_ACCOUNT_ACTION.format(account=report.reported_name))


def _post_list(statuses: Sequence[tuple[int, Status | None]], *, excerpt: bool) -> SafeString | str:
    if not statuses:
        return "-"
    items = []
    for status_id, status in statuses:
        if status is None:
            items.append(format_html("<li>#{} (deleted)</li>", status_id))
            continue
        text = Truncator(status.message).chars(EXCERPT_CHARS) if excerpt else status.message
        link = _post_link(status)
        images = "" if excerpt else _images(status)
        items.append(format_html('<li><a href="{}">#{} @{}</a> {}{}</li>', link, status_id, status.login, text, images))
    return format_html('<ul class="reported-posts">{}</ul>', format_html_join("", "{}", ((item,) for item in items)))


def _images(status: Status) -> SafeString | str:
    """A reported post's previews, each with its Remove image link (the post stays; ``statuses.remove_image``)."""
    if not status.media:
        return ""
    links = (
        (
            item.url,
            item.preview_url,
            item.description,
            reverse("admin:moderation_remove_image", kwargs={"status_id": status.id, "media_id": item.id}),
        )
        for item in status.media
    )
    return format_html(
        '<span class="status-media">{}</span>',
        format_html_join(
            " ",
            '<a href="{}"><img src="{}" alt="{}" width="64" height="64" loading="lazy"></a> '
            '<a href="{}" class="deletelink">Remove image</a>',
            links,
        ),
    )

"""Domain blocks in the admin: add, change and lift them through ``federation.services.domain_blocks``, so the
admin applies them as the service does (the accounts of the server flagged at once) and the audit log has one
entry per change with the moderator's reason, not Django's own "Added." entry.

The domain of a block is fixed once made (a block of another domain is another block); lifting one (Django's
delete, one or many) is written in the audit log as lifted from the admin.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.moderation import ModerationError, clean_reason
from federation.models import DomainBlock
from federation.services import domain_blocks

LIFTED_FROM_ADMIN = "lifted from the admin"


class DomainBlockForm(forms.ModelForm):
    class Meta:
        model = DomainBlock
        fields = ("domain", "severity", "reject_media", "reason")
        widgets = {"reason": forms.Textarea(attrs={"rows": 3, "cols": 60})}

    def clean_domain(self) -> str:
        try:
            return domain_blocks.clean_domain(self.cleaned_data["domain"])
        except ModerationError as error:
            raise forms.ValidationError(error.message) from None

    def clean_reason(self) -> str:
        try:
            return clean_reason(self.cleaned_data["reason"])
        except ModerationError as error:
            raise forms.ValidationError(error.message) from None


@admin.register(DomainBlock)
class DomainBlockAdmin(admin.ModelAdmin):
    form = DomainBlockForm
    list_display = ("domain", "severity", "reject_media", "reason", "created")
    list_filter = ("severity", "reject_media")
    search_fields = ("domain",)
    ordering = ("domain",)

    def get_readonly_fields(self, request: HttpRequest, obj: DomainBlock | None = None) -> tuple[str, ...]:
        return ("domain",) if obj is not None else ()

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        # The Federation page's "Block" links here with ?domain=...
        return {"domain": request.GET.get("domain", "")[:255]}

    def save_model(self, request: HttpRequest, obj: DomainBlock, form: forms.ModelForm, change: bool) -> None:
        block = domain_blocks.block_domain(
            moderator=request.user,  # type: ignore[arg-type]
            domain=obj.domain,
            severity=obj.severity,
            reject_media=obj.reject_media,
            reason=obj.reason,
        )
        obj.pk = block.pk
        obj.created, obj.updated = block.created, block.updated

    def delete_model(self, request: HttpRequest, obj: DomainBlock) -> None:
        domain_blocks.unblock_domain(moderator=request.user, domain=obj.domain, reason=LIFTED_FROM_ADMIN)  # type: ignore[arg-type]

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for block in list(queryset):
            self.delete_model(request, block)

    # The service writes the audit entry, with the reason: Django's own would say "Added." a second time.
    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> None:
        return None

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> None:
        return None

    def log_deletions(self, request: HttpRequest, queryset: Any) -> None:
        return None

    def log_deletion(self, request: HttpRequest, obj: Any, object_repr: str) -> None:
        return None

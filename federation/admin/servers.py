"""The admin's **Federation** page (``/admin/federation/``): the servers this one knows (``federation.servers``),
with their accounts here, the follows between them and the people here, their delivery state (available,
failing, unavailable, suspended) and their domain block, with a link to block or change it. Staff who may view
domain blocks see it (moderators do)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse

from federation import servers
from timelines import validation

VIEW_PERMISSION = "federation.view_domainblock"


def register(site: Any) -> None:
    site.register_page(
        "federation/",
        servers_view,
        url_name="federation",
        title="Federation",
        allowed=lambda request: request.user.has_perm(VIEW_PERMISSION),
    )


def _page_number(raw: str) -> int:
    try:
        return validation.parse_int(raw, maximum=10_000)
    except ValueError:
        return 1


def servers_view(request: HttpRequest) -> HttpResponse:
    if not request.user.has_perm(VIEW_PERMISSION):
        denied = {**admin.site.each_context(request), "denied": True}
        return TemplateResponse(request, "admin/moderation/federation.html", denied, status=403)
    query = request.GET.get("q", "")[:200]
    page = _page_number(request.GET.get("page", "1") or "1")
    total = servers.count_servers(query=query)
    last_page = max(1, -(-total // servers.PAGE_SIZE))
    context = {
        **admin.site.each_context(request),
        "title": "Federation",
        "servers": servers.get_servers(query=query, page=page),
        "total": total,
        "query": query,
        "page": page,
        "previous_page": page - 1 if page > 1 else None,
        "next_page": page + 1 if page < last_page else None,
        "blocks_url": reverse("admin:federation_domainblock_changelist"),
        "accounts_url": reverse("admin:federation_remoteactor_changelist"),
        "add_block_url": reverse("admin:federation_domainblock_add"),
        "can_block": request.user.has_perm("federation.add_domainblock"),
    }
    return TemplateResponse(request, "admin/moderation/federation.html", context)

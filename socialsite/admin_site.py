"""The site's Django admin: Django's own, plus a **Moderation** section on the index (and in the navigation
sidebar) gathering the moderators' pages, whichever app they come from.

Apps add to it when the admin discovers them (their ``admin`` module): ``register_page`` for a page that is
no model's changelist (a list read from Redis, the dashboard), ``add_to_moderation`` for a registered
model's changelist. This module knows no app: they import it, never the reverse. Set as Django's default
admin site by ``socialsite.admin_config.AdminConfig``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, path, reverse

from socialsite import redirects

MODERATION = "moderation"


@dataclass(frozen=True, slots=True)
class _Page:
    route: str
    view: Callable[..., HttpResponse]
    url_name: str
    title: str | None  # listed in the Moderation section when set
    allowed: Callable[[HttpRequest], bool]


@dataclass(frozen=True, slots=True)
class _ModelEntry:
    model: type[Model]
    title: str


class SocialsiteAdminSite(admin.AdminSite):
    site_header = "socialsite administration"
    site_title = "socialsite admin"
    index_title = "Administration"

    def __init__(self, name: str = "admin") -> None:
        super().__init__(name)
        self._moderation: list[_Page | _ModelEntry] = []

    def register_page(
        self,
        route: str,
        view: Callable[..., HttpResponse],
        *,
        url_name: str,
        title: str | None = None,
        allowed: Callable[[HttpRequest], bool] = lambda request: True,
    ) -> None:
        """Serve ``view`` at ``/admin/<route>`` as ``admin:<url_name>``, for staff only (``admin_view``: anyone
        else is sent to the admin's log-in); with ``title``, list it in the Moderation section for the
        staff ``allowed`` lets see it. The view checks its own permissions."""
        page = _Page(route, view, url_name, title, allowed)
        self._moderation.append(page)

    def add_to_moderation(self, model: type[Model], *, title: str) -> None:
        """List ``model``'s changelist (registered on this site) in the Moderation section as ``title``."""
        self._moderation.append(_ModelEntry(model, title))

    def get_urls(self) -> list[URLPattern]:
        pages = [
            path(entry.route, self.admin_view(entry.view), name=entry.url_name)
            for entry in self._moderation
            if isinstance(entry, _Page)
        ]
        # Before Django's own, whose last pattern takes any "<app_label>/" for an app's index.
        return [*pages, *super().get_urls()]

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """The site's own log-in page, never Django's admin form: that was a second door to every account,
        without the failed-log-in limit (``socialsite.ratelimits``), so a staff password could be guessed there
        without end. Staff come back to ``next`` (a path on this site, else the admin's index)."""
        index = reverse("admin:index", current_app=self.name)
        if self.has_permission(request):
            return HttpResponseRedirect(redirects.next_url(request, index))
        if request.user.is_authenticated:
            # Logged in without admin access: the log-in page would send them straight back here.
            raise PermissionDenied
        return redirect_to_login(redirects.next_url(request, index), login_url=settings.LOGIN_URL)

    def get_app_list(self, request: HttpRequest, app_label: str | None = None) -> list[dict[str, Any]]:
        apps = super().get_app_list(request, app_label)
        if app_label is not None:
            return apps
        section = self._moderation_section(request, apps)
        return [section, *apps] if section["models"] else apps

    def _moderation_section(self, request: HttpRequest, apps: list[dict[str, Any]]) -> dict[str, Any]:
        models = {entry["model"]: entry for app in apps for entry in app["models"]}
        rows: list[dict[str, Any]] = []
        for entry in self._moderation:
            if isinstance(entry, _ModelEntry):
                if entry.model in models:
                    rows.append({**models[entry.model], "name": entry.title, "add_url": None})
            elif entry.title and entry.allowed(request):
                url = reverse(f"{self.name}:{entry.url_name}", current_app=self.name)
                object_name = entry.title.replace(" ", "")
                rows.append(
                    {
                        "name": entry.title,
                        "object_name": object_name,
                        "admin_url": url,
                        "add_url": None,
                        "view_only": True,
                    }
                )
        first_page = next((row["admin_url"] for row in rows), "")
        return {
            "name": "Moderation",
            "app_label": MODERATION,
            "app_url": first_page,
            "has_module_perms": True,
            "models": rows,
        }

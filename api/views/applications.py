"""``/settings/applications``: the apps a person has authorized, each with **Revoke** (which ends every token the
person gave that app at once). A page of the site, behind its log-in, like the other settings pages."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from api import oauth


@login_required
@require_safe
def applications(request: HttpRequest) -> HttpResponse:
    return render(request, "api/applications.html", {"apps": oauth.authorized_applications(user=request.user)})


@login_required
@require_POST
def revoke_application(request: HttpRequest, application_id: int) -> HttpResponse:
    if oauth.revoke_application(user=request.user, application_id=application_id):
        messages.success(request, "Access revoked.")
    return redirect("api:applications")

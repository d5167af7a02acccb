"""Settings pages of the social profile: ``/settings/profile`` edits the display name, the bio and whether
the account is private."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from timelines import exceptions, selectors, services
from timelines.forms import ProfileForm

TEMPLATE = "timelines/settings_profile.html"


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def edit(request: HttpRequest) -> HttpResponse:
    uid = request.user.uid
    me = selectors.get_user(uid=uid)
    if request.method != "POST":
        form = ProfileForm(initial={"name": me.name, "bio": me.bio, "private": me.private})
        return render(request, TEMPLATE, {"form": form, "me": me})
    form = ProfileForm(request.POST)
    if form.is_valid():
        try:
            services.update_profile(uid=uid, name=form.cleaned_data["name"], bio=form.cleaned_data["bio"])
            if form.cleaned_data["private"] != me.private:
                services.set_private(uid=uid, private=form.cleaned_data["private"])
        except exceptions.InvalidName as error:
            form.add_error("name", error.message)
        except exceptions.InvalidBio as error:
            form.add_error("bio", error.message)
        else:
            messages.success(request, "Profile saved.")
            return redirect("timelines:profile_settings")
    return render(request, TEMPLATE, {"form": form, "me": me}, status=400)

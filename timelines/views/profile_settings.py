"""Settings pages of the social profile: ``/settings/profile`` edits the display name, the bio, the avatar and
header pictures, whether the account is private and the default visibility of new posts."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from media import limits as media_limits
from timelines import exceptions, selectors, services
from timelines.forms import ProfileForm
from timelines.services.pictures import set_picture

TEMPLATE = "timelines/settings_profile.html"


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def edit(request: HttpRequest) -> HttpResponse:
    uid = request.user.uid
    me = selectors.get_user(uid=uid)
    initial = {"name": me.name, "bio": me.bio, "private": me.private, "default_visibility": me.default_visibility}
    if request.method != "POST":
        return render(request, TEMPLATE, {"form": ProfileForm(initial=initial), "me": me})
    form = ProfileForm(request.POST, request.FILES, initial=initial)
    if form.is_valid() and _pictures_saved(uid, form):
        try:
            # The privacy first: which default visibilities the account may choose depends on it.
            if form.cleaned_data["private"] != me.private:
                services.set_private(uid=uid, private=form.cleaned_data["private"])
            services.update_profile(
                uid=uid,
                name=form.cleaned_data["name"],
                bio=form.cleaned_data["bio"],
                # Only a changed default is saved: the one shown stays valid whatever the privacy.
                default_visibility=(
                    form.cleaned_data["default_visibility"] or None
                    if "default_visibility" in form.changed_data
                    else None
                ),
            )
        except exceptions.InvalidName as error:
            form.add_error("name", error.message)
        except exceptions.InvalidBio as error:
            form.add_error("bio", error.message)
        except exceptions.InvalidVisibility as error:
            form.add_error("default_visibility", error.message)
        else:
            messages.success(request, "Profile saved.")
            return redirect("timelines:profile_settings")
    return render(request, TEMPLATE, {"form": form, "me": me}, status=400)


def _pictures_saved(uid: int, form: ProfileForm) -> bool:
    """Store the avatar and header the form carries (or remove them); False with the form's error when one is
    refused (nothing else of the form is saved then)."""
    for kind in ("avatar", "header"):
        upload = form.cleaned_data.get(kind)
        try:
            if upload:
                if upload.size > media_limits.max_upload_bytes():
                    raise exceptions.InvalidMedia(media_limits.too_large_message())
                focus = form.cleaned_data.get(f"{kind}_focus") or None
                set_picture(uid=uid, kind=kind, data=upload.read(), focus=focus)
            elif form.cleaned_data.get(f"remove_{kind}"):
                set_picture(uid=uid, kind=kind, data=None)
        except exceptions.InvalidMedia as error:
            form.add_error(kind, error.message)
            return False
    return True

"""Follow and Unfollow on a tag's page (``/tags/<tag>/follow``, ``/unfollow``): a form post answered with a
redirect to the tag's page and a message (``services.followed_tags``: the tag's public posts reach the home from
then on)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from timelines import exceptions
from timelines.services.followed_tags import clean_tag, follow_tag, unfollow_tag


def _change(request: HttpRequest, tag: str, *, follow: bool) -> HttpResponse:
    try:
        name = clean_tag(tag)
        change = follow_tag if follow else unfollow_tag
        changed = change(uid=request.user.uid, tag=name)
    except exceptions.InvalidTag:
        raise Http404(exceptions.INVALID_TAG) from None
    except exceptions.TooManyFollowedTags as error:
        return render(request, "error.html", {"message": error.message}, status=400)
    if changed:
        verb = "now follow" if follow else "no longer follow"
        messages.success(request, f"You {verb} #{name}.")
    return redirect("timelines:tag", tag=name)


@login_required
@require_POST
def follow(request: HttpRequest, tag: str) -> HttpResponse:
    return _change(request, tag, follow=True)


@login_required
@require_POST
def unfollow(request: HttpRequest, tag: str) -> HttpResponse:
    return _change(request, tag, follow=False)

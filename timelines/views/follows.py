"""Follow and Unfollow: a form post answered with a redirect, or with htmx the button and fresh counts."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from socialsite import ratelimits
from socialsite.redirects import redirect_next
from timelines import exceptions, selectors, services
from timelines.views.params import announce, user_or_404, wants_fragment


def _change_follow(request: HttpRequest, login: str, *, follow: bool) -> HttpResponse:
    other = user_or_404(login)
    uid = request.user.uid
    requested = False
    try:
        if follow:
            changed = services.follow_user(uid=uid, other_uid=other.id)
            requested = changed == services.REQUESTED
        else:
            # Unfollow also withdraws a pending request (the "Requested" button).
            changed = services.withdraw_follow_request(uid=uid, other_uid=other.id)
            changed = services.unfollow_user(uid=uid, other_uid=other.id) or changed
    except exceptions.CannotFollow as error:
        if wants_fragment(request):
            context = {"target": other, "following": False, "error": error.message}
            return render(request, "timelines/_follow_result.html", context, status=403)
        return render(request, "error.html", {"message": error.message}, status=403)
    except exceptions.CannotFollowSelf as error:
        if wants_fragment(request):
            context = {"target": other, "following": False, "error": error.message}
            return render(request, "timelines/_follow_result.html", context, status=400)
        return render(request, "error.html", {"message": error.message}, status=400)
    except exceptions.UnknownUser:
        raise Http404(exceptions.UNKNOWN_USER) from None
    verb = "asked to follow" if requested else ("now follow" if follow else "no longer follow")
    if wants_fragment(request):
        context = {
            # Fresh counts: the follower count on the page changes with this click.
            "target": selectors.get_user(uid=other.id),
            "following": follow and not requested,
            "requested": requested,
            "with_counts": bool(request.POST.get("counts")),
        }
        return announce(render(request, "timelines/_follow_result.html", context), f"You {verb} @{other.acct}.")
    if changed:
        messages.success(request, f"You {verb} @{other.acct}.")
    return redirect_next(request, reverse("timelines:profile", args=[other.login]))


@login_required
@require_POST
@ratelimits.limit("follows")
def follow(request: HttpRequest, login: str) -> HttpResponse:
    return _change_follow(request, login, follow=True)


@login_required
@require_POST
def unfollow(request: HttpRequest, login: str) -> HttpResponse:
    return _change_follow(request, login, follow=False)

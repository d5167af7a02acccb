"""Blocks, mutes and follow requests from a browser: the profile's Block / Unblock and Mute / Unmute
buttons, ``/follow-requests`` with Approve and Reject, and ``/settings/blocks`` and ``/settings/mutes`` with
undo. Every change is a POST answered with a redirect (``next``), so it works without JavaScript."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from socialsite.redirects import redirect_next
from timelines import exceptions, selectors, services
from timelines.views.params import user_or_404

_ACTIONS: dict[str, tuple[Callable[..., bool], str]] = {
    "block": (services.block_user, "You blocked @{login}. They are not told."),
    "unblock": (services.unblock_user, "You unblocked @{login}."),
    "mute": (services.mute_user, "You muted @{login}. They are not told."),
    "unmute": (services.unmute_user, "You unmuted @{login}."),
}


def _relate(request: HttpRequest, login: str, action: str) -> HttpResponse:
    other = user_or_404(login)
    service, done = _ACTIONS[action]
    try:
        service(uid=request.user.uid, other_uid=other.id)
    except exceptions.CannotTargetSelf as error:
        return render(request, "error.html", {"message": error.message}, status=400)
    messages.success(request, done.format(login=other.login))
    return redirect_next(request, reverse("timelines:profile", args=[other.login]))


@login_required
@require_POST
def block(request: HttpRequest, login: str) -> HttpResponse:
    return _relate(request, login, "block")


@login_required
@require_POST
def unblock(request: HttpRequest, login: str) -> HttpResponse:
    return _relate(request, login, "unblock")


@login_required
@require_POST
def mute(request: HttpRequest, login: str) -> HttpResponse:
    return _relate(request, login, "mute")


@login_required
@require_POST
def unmute(request: HttpRequest, login: str) -> HttpResponse:
    return _relate(request, login, "unmute")


@login_required
@require_safe
def follow_requests(request: HttpRequest) -> HttpResponse:
    people = selectors.get_follow_requests(uid=request.user.uid)
    return render(request, "timelines/follow_requests.html", {"people": people})


@login_required
@require_POST
def answer_follow_request(request: HttpRequest, login: str, answer: str) -> HttpResponse:
    requester = user_or_404(login)
    if answer == "approve":
        changed = services.approve_follow_request(uid=request.user.uid, requester_uid=requester.id)
        text = f"@{requester.login} now follows you."
    else:
        changed = services.reject_follow_request(uid=request.user.uid, requester_uid=requester.id)
        text = f"You turned down @{requester.login}'s request."
    if changed:
        messages.success(request, text)
    return redirect_next(request, reverse("timelines:follow_requests"))


@login_required
@require_safe
def blocks(request: HttpRequest) -> HttpResponse:
    people = selectors.get_blocked_users(uid=request.user.uid)
    return render(request, "timelines/relations.html", {"people": people, "which": "blocks"})


@login_required
@require_safe
def mutes(request: HttpRequest) -> HttpResponse:
    people = selectors.get_muted_users(uid=request.user.uid)
    return render(request, "timelines/relations.html", {"people": people, "which": "mutes"})

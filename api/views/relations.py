"""Blocking and muting people, and the lists of whom the viewer blocks and mutes: ``services.block_user`` and
``mute_user`` as the site's buttons call them (a block ends follows both ways; a mute hides from feeds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest

from api.entities.accounts import account, relationship
from api.http import ApiError, endpoint, limit_param, not_found, parse_id
from timelines import exceptions, selectors, services

NOT_ALLOWED = "This action is not allowed"


def _change(request: HttpRequest, account_id: str, service: Callable[..., bool]) -> dict[str, Any]:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    try:
        other = selectors.get_user(uid=parse_id(account_id))
    except exceptions.UnknownUser:
        raise not_found() from None
    if other.suspended:
        raise not_found()
    try:
        service(uid=viewer, other_uid=other.id)
    except exceptions.CannotTargetSelf:
        raise ApiError(403, NOT_ALLOWED) from None
    except exceptions.UnknownUser:
        raise not_found() from None
    return relationship(other.id, selectors.get_relationship(viewer=viewer, other=other.id))


@endpoint("POST", scopes={"POST": "write:blocks"})
def block(request: HttpRequest, account_id: str) -> Any:
    return _change(request, account_id, services.block_user)


@endpoint("POST", scopes={"POST": "write:blocks"})
def unblock(request: HttpRequest, account_id: str) -> Any:
    return _change(request, account_id, services.unblock_user)


@endpoint("POST", scopes={"POST": "write:mutes"})
def mute(request: HttpRequest, account_id: str) -> Any:
    return _change(request, account_id, services.mute_user)


@endpoint("POST", scopes={"POST": "write:mutes"})
def unmute(request: HttpRequest, account_id: str) -> Any:
    return _change(request, account_id, services.unmute_user)


@endpoint("GET", scopes={"GET": "read:blocks"})
def blocks(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    people = selectors.get_blocked_users(uid=viewer, count=limit_param(request, default=40, maximum=80))
    return [account(request, person) for person in people]


@endpoint("GET", scopes={"GET": "read:mutes"})
def mutes(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    people = selectors.get_muted_users(uid=viewer, count=limit_param(request, default=40, maximum=80))
    return [account(request, person) for person in people]

"""Blocking and muting people, the lists of whom the viewer blocks and mutes, and answering follow requests:
``services.block_user``, ``mute_user`` and ``approve_follow_request`` as the site's buttons call them (a block
ends follows both ways; a mute hides from feeds)."""

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


@endpoint("GET", scopes={"GET": "read:follows"})
def follow_requests(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    people = selectors.get_follow_requests(uid=viewer, count=limit_param(request, default=40, maximum=80))
    return [account(request, person) for person in people if not person.suspended]


def _answer(request: HttpRequest, account_id: str, service: Callable[..., bool]) -> dict[str, Any]:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    try:
        other = selectors.get_user(uid=parse_id(account_id))
    except exceptions.UnknownUser:
        raise not_found() from None
    try:
        answered = service(uid=viewer, requester_uid=other.id)
    except exceptions.TimelineError:
        raise not_found() from None
    if not answered:
        raise not_found()  # no such request to this person
    return relationship(other.id, selectors.get_relationship(viewer=viewer, other=other.id))


@endpoint("POST", scopes={"POST": "write:follows"})
def authorize_follow_request(request: HttpRequest, account_id: str) -> Any:
    return _answer(request, account_id, services.approve_follow_request)


@endpoint("POST", scopes={"POST": "write:follows"})
def reject_follow_request(request: HttpRequest, account_id: str) -> Any:
    return _answer(request, account_id, services.reject_follow_request)

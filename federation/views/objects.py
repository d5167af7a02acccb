"""Actors, Notes and collections, as other servers fetch them. Only what anyone may see is served: a suspended
account is gone (410 for its actor), a post the anonymous reader may not see (followers only, direct, a private
account's) is 404, as for one that does not exist. Signed fetches ("authorized fetch") are not required yet."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from federation import documents, identities, keypairs
from federation.services.outbound import note_of
from federation.views.common import activity_json, error
from timelines import exceptions, policy, selectors
from timelines import visibility as visibilities
from timelines.records import User

OUTBOX_ITEMS = 20


def _local_user(login: str) -> User | None:
    try:
        user = selectors.get_user_by_login(login=login)
    except exceptions.UnknownUser:
        return None
    return None if user.domain else user


def actor(request: HttpRequest, login: str) -> HttpResponse:
    user = _local_user(login)
    if user is None:
        return error("Record not found", 404)
    if user.suspended:
        return error("Gone", 410)
    return activity_json(documents.person(user, public_key_pem=keypairs.public_key_pem(user.id)))


def note(request: HttpRequest, login: str, status_id: int) -> HttpResponse:
    user = _local_user(login)
    if user is None:
        return error("Record not found", 404)
    try:
        status = selectors.get_status(status_id=status_id, viewer_uid=None)
    except exceptions.StatusNotFound:
        return error("Record not found", 404)
    if (
        status.uid != user.id
        or status.repost_of
        or status.visibility not in (visibilities.PUBLIC, visibilities.UNLISTED)
    ):
        return error("Record not found", 404)
    return activity_json(documents.with_context(note_of(status)))


@require_safe
def instance_actor(request: HttpRequest) -> HttpResponse:
    return activity_json(documents.instance_actor(public_key_pem=keypairs.public_key_pem(keypairs.INSTANCE_UID)))


@require_safe
def outbox(request: HttpRequest, login: str) -> HttpResponse:
    """The account's latest public and unlisted posts as Creates (``OUTBOX_ITEMS``), and its post count."""
    user = _local_user(login)
    if user is None or user.suspended:
        return error("Record not found", 404)
    items = []
    if policy.may_see_profile(viewer=None, author=user.id):
        entries = selectors.get_status_messages(uid=user.id, timeline="profile", viewer_uid=None, count=OUTBOX_ITEMS)
        for entry in entries:
            if entry.repost_of or getattr(entry, "reposted_by", None):
                continue
            status = selectors.get_status(status_id=entry.id)
            if status.visibility in (visibilities.PUBLIC, visibilities.UNLISTED):
                items.append(documents.create(note_of(status)))
    return activity_json(
        documents.ordered_collection(identifier=identities.outbox(user.login), total=user.posts, items=items)
    )


@require_safe
def followers(request: HttpRequest, login: str) -> HttpResponse:
    user = _local_user(login)
    if user is None or user.suspended:
        return error("Record not found", 404)
    return activity_json(
        documents.ordered_collection(identifier=identities.followers(user.login), total=user.followers)
    )


@require_safe
def following(request: HttpRequest, login: str) -> HttpResponse:
    user = _local_user(login)
    if user is None or user.suspended:
        return error("Record not found", 404)
    return activity_json(
        documents.ordered_collection(identifier=identities.following(user.login), total=user.following)
    )


@require_safe
def featured(request: HttpRequest, login: str) -> HttpResponse:
    user = _local_user(login)
    if user is None or user.suspended:
        return error("Record not found", 404)
    return activity_json(documents.ordered_collection(identifier=identities.featured(user.login), total=0, items=[]))

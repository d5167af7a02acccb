"""Actors, Notes and collections, as other servers fetch them. Only what anyone may see is served: a suspended
account is gone (410 for its actor), a post the anonymous reader may not see (followers only, direct, a private
account's) is 404, as for one that does not exist. With authorized fetch on (``federation.views.authorized``),
every document but the instance actor is served only to a signed request."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from federation import contexts, documents, identities, keypairs
from federation.services.outbound import note_of
from federation.views.authorized import signed_fetch
from federation.views.common import activity_json, error
from timelines import exceptions, policy, selectors
from timelines import visibility as visibilities
from timelines.records import Status, User

OUTBOX_ITEMS = 20
REPLY_ITEMS = 40


def _local_user(login: str) -> User | None:
    try:
        user = selectors.get_user_by_login(login=login)
    except exceptions.UnknownUser:
        return None
    return None if user.domain else user


@signed_fetch
def actor(request: HttpRequest, login: str) -> HttpResponse:
    user = _local_user(login)
    if user is None:
        return error("Record not found", 404)
    if user.suspended:
        return error("Gone", 410)
    return activity_json(documents.person(user, public_key_pem=keypairs.public_key_pem(user.id)))


def _served_status(login: str, status_id: int) -> Status | None:
    """Local post ``status_id`` of ``login`` when anyone may fetch it (public or unlisted, seen by the policy
    as an anonymous reader sees it), else None."""
    user = _local_user(login)
    if user is None:
        return None
    try:
        status = selectors.get_status(status_id=status_id, viewer_uid=None)
    except exceptions.StatusNotFound:
        return None
    if (
        status.uid != user.id
        or status.repost_of
        or status.visibility not in (visibilities.PUBLIC, visibilities.UNLISTED)
    ):
        return None
    return status


@signed_fetch
def note(request: HttpRequest, login: str, status_id: int) -> HttpResponse:
    status = _served_status(login, status_id)
    if status is None:
        return error("Record not found", 404)
    return activity_json(documents.with_context(note_of(status)))


@require_safe
@signed_fetch
def replies(request: HttpRequest, login: str, status_id: int) -> HttpResponse:
    """A post's ``replies`` (Mastodon's shape): the URIs of its first ``REPLY_ITEMS`` direct replies, oldest
    first, that anyone may fetch (public or unlisted, as the policy shows them to an anonymous reader), this
    server's and others'; with ``page``, the page alone."""
    status = _served_status(login, int(status_id))
    if status is None:
        return error("Record not found", 404)
    items = [
        str(reply.get("uri") or identities.status(reply.login, reply.id))
        for reply in selectors.get_replies(status_id=status.id, viewer_uid=None, count=REPLY_ITEMS)
        if reply.visibility in (visibilities.PUBLIC, visibilities.UNLISTED)
    ]
    identifier = identities.replies(status.login, status.id)
    if "page" in request.GET:
        return activity_json(documents.collection_page(identifier, items))
    collection = documents.replies_collection(identifier, items)
    return activity_json({"@context": contexts.ACTIVITYSTREAMS, **collection})


@require_safe
def instance_actor(request: HttpRequest) -> HttpResponse:
    return activity_json(documents.instance_actor(public_key_pem=keypairs.public_key_pem(keypairs.INSTANCE_UID)))


@require_safe
@signed_fetch
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
@signed_fetch
def followers(request: HttpRequest, login: str) -> HttpResponse:
    user = _local_user(login)
    if user is None or user.suspended:
        return error("Record not found", 404)
    return activity_json(
        documents.ordered_collection(identifier=identities.followers(user.login), total=user.followers)
    )


@require_safe
@signed_fetch
def following(request: HttpRequest, login: str) -> HttpResponse:
    user = _local_user(login)
    if user is None or user.suspended:
        return error("Record not found", 404)
    return activity_json(
        documents.ordered_collection(identifier=identities.following(user.login), total=user.following)
    )


@require_safe
@signed_fetch
def featured(request: HttpRequest, login: str) -> HttpResponse:
    user = _local_user(login)
    if user is None or user.suspended:
        return error("Record not found", 404)
    return activity_json(documents.ordered_collection(identifier=identities.featured(user.login), total=0, items=[]))

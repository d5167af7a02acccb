"""Statuses: posting (with ``Idempotency-Key``), reading one and its conversation, editing (with its history and
source text), deleting, liking and reposting. Every read goes through the selectors, so a post the viewer may not
see is ``404 Record not found`` exactly as a post that does not exist; every write through the services, with the
site's rate limit on posts."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api import idempotency
from api.entities.accounts import account
from api.entities.statuses import status, status_edits, statuses
from api.http import (
    ApiError,
    bool_param,
    endpoint,
    id_param,
    limit_param,
    list_param,
    not_found,
    param,
    parse_id,
    text_param,
)
from api.limits import rate_limited
from timelines import exceptions, hooks, limits, selectors, services, visibility
from timelines.records import TimelineEntry

VISIBILITIES = frozenset(visibility.LEVELS)  # Mastodon's four: public, unlisted, private, direct
IN_PROGRESS = "A request with this Idempotency-Key is still being processed"
NOT_ALLOWED = "This action is not allowed"


def _entry(viewer: int | None, status_id: int) -> TimelineEntry:
    try:
        return selectors.get_entry(status_id=status_id, viewer_uid=viewer)
    except exceptions.StatusNotFound:
        raise not_found() from None


def _shown(request: HttpRequest, entry: TimelineEntry) -> dict[str, Any]:
    shaped = status(request, entry)
    if shaped is None:
        raise not_found()
    return shaped


def _post(request: HttpRequest) -> int:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    message = text_param(request, "status")
    chosen = text_param(request, "visibility") or None
    if chosen is not None and chosen not in VISIBILITIES:
        raise ApiError(422, f"Validation failed: Visibility is not included in the list ({chosen[:20]!r})")
    in_reply_to = id_param(request, "in_reply_to_id")
    media_ids = list_param(request, "media_ids")
    with rate_limited(request, "posts"):
        try:
            return services.post_status(
                uid=viewer,
                message=message or "",
                in_reply_to=in_reply_to or None,
                visibility=chosen,
                media_ids=media_ids,
                sensitive=bool_param(request, "sensitive"),
            )
        except (
            exceptions.InvalidMessage,
            exceptions.InvalidStatusData,
            exceptions.InvalidVisibility,
            exceptions.InvalidMedia,
        ) as error:
            raise ApiError(422, f"Validation failed: {error.message}") from None
        except exceptions.StatusNotFound:
            raise not_found() from None


@endpoint("POST", scopes={"POST": "write:statuses"})
def create(request: HttpRequest) -> Any:
    key = request.headers.get("Idempotency-Key", "")[: idempotency.MAX_KEY_LENGTH]
    account = request.user.pk
    if key:
        earlier = idempotency.claim(account, key)
        if earlier == idempotency.PENDING:
            raise ApiError(409, IN_PROGRESS)
        if isinstance(earlier, int):
            return _shown(request, _entry(request.viewer_uid, earlier))  # type: ignore[attr-defined]
    try:
        status_id = _post(request)
    except BaseException:
        if key:
            idempotency.release(account, key)
        raise
    if key:
        idempotency.record(account, key, status_id)
    return _shown(request, _entry(request.viewer_uid, status_id))  # type: ignore[attr-defined]


@endpoint(
    "GET",
    "PUT",
    "DELETE",
    scopes={"GET": "read:statuses", "PUT": "write:statuses", "DELETE": "write:statuses"},
    auth="optional",
)
def detail(request: HttpRequest, status_id: str) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    entry = _entry(viewer, parse_id(status_id))
    if request.method == "PUT":
        return _edit(request, entry)
    if request.method != "DELETE":
        return _shown(request, entry)
    if viewer is None:
        raise ApiError(401, "The access token is invalid")
    shaped = _shown(request, entry)
    try:
        services.delete_status(uid=viewer, status_id=int(shaped["id"]))
    except (exceptions.StatusNotFound, exceptions.NotOwner):
        # Someone else's post is not among the viewer's to delete: as if it did not exist (Mastodon's answer).
        raise not_found() from None
    # Mastodon answers with the deleted post and its source text, for "delete and redraft".
    original = entry.status if shaped.get("reblog") is None else None
    return {**shaped, "text": original.message if original is not None else None}


def _media_edit(request: HttpRequest) -> tuple[list[str] | None, dict[str, str]]:
    """An edit's images: ``media_ids[]`` (None when absent: the post keeps its images; ``[]`` in JSON removes
    them) and ``media_attributes[][id|description]`` (Mastodon's alt text changes, as a JSON list of objects or
    as paired form fields), as id -> description."""
    given = param(request, "media_ids[]") is not None or param(request, "media_ids") is not None
    media_ids = list_param(request, "media_ids") if given else None
    descriptions: dict[str, str] = {}
    attributes = param(request, "media_attributes")
    if attributes is not None:
        if not isinstance(attributes, list) or not all(isinstance(item, dict) for item in attributes):
            raise ApiError(422, "Validation failed: media_attributes must be a list of objects")
        pairs = [(item.get("id"), item.get("description")) for item in attributes]
    else:
        pairs = list(
            zip(
                list_param(request, "media_attributes[][id]"),
                list_param(request, "media_attributes[][description]"),
                strict=False,
            )
        )
    for media_id, description in pairs:
        if media_id is None or description is None:
            continue
        if not isinstance(description, str):
            raise ApiError(422, "Validation failed: a description must be a string")
        descriptions[str(media_id)] = description
    return media_ids, descriptions


def _edit(request: HttpRequest, entry: TimelineEntry) -> Any:
    """``PUT /api/v1/statuses/:id``: a new text (``status``) for the viewer's own post, under the posts rate
    limit, and its images (``media_ids[]``, ``media_attributes[]``: ``_media_edit``). The visibility, and the
    parameters of what socialsite does not have (polls, content warnings), are not the edit's to change and are
    ignored; someone else's post is 403, as on Mastodon."""
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    if viewer is None:
        raise ApiError(401, "The access token is invalid")
    if entry.reposted_by is not None or entry.status.uid != viewer:
        raise ApiError(403, NOT_ALLOWED)
    message = text_param(request, "status")
    media_ids, descriptions = _media_edit(request)
    with rate_limited(request, "posts"):
        try:
            services.edit_status(
                uid=viewer,
                status_id=entry.status.id,
                message=message or "",
                media_ids=media_ids,
                descriptions=descriptions or None,
            )
        except (exceptions.InvalidMessage, exceptions.TooManyVersions, exceptions.InvalidMedia) as error:
            raise ApiError(422, f"Validation failed: {error.message}") from None
        except exceptions.StatusNotFound:
            raise not_found() from None
        except exceptions.NotOwner:
            raise ApiError(403, NOT_ALLOWED) from None
    return _shown(request, _entry(viewer, entry.status.id))


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def history(request: HttpRequest, status_id: str) -> Any:
    """Every version of a post the viewer may see, oldest first (Mastodon's StatusEdit list)."""
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    entry = _entry(viewer, parse_id(status_id))
    try:
        versions = selectors.get_status_history(status_id=entry.status.id, viewer_uid=viewer)
    except exceptions.StatusNotFound:
        raise not_found() from None
    return status_edits(request, entry.status, versions)


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def source(request: HttpRequest, status_id: str) -> Any:
    """The plain text of a post the viewer may see, for an edit box (Mastodon's StatusSource)."""
    entry = _entry(request.viewer_uid, parse_id(status_id))  # type: ignore[attr-defined]
    return {"id": str(entry.status.id), "text": entry.status.message, "spoiler_text": ""}


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def context(request: HttpRequest, status_id: str) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    entry = _entry(viewer, parse_id(status_id))
    try:
        thread = selectors.get_thread(status_id=entry.status.id, viewer_uid=viewer, count=limits.MAX_PAGE_SIZE)
    except exceptions.StatusNotFound:
        raise not_found() from None
    # Another server's post: its replies missing here are fetched from there (a job, within limits).
    hooks.remote_thread_opened(thread.status.status)
    ancestors = [item.entry for item in thread.ancestors if item.entry is not None]
    descendants = [item.entry for item in thread.descendants if item.entry is not None]
    return {"ancestors": statuses(request, ancestors), "descendants": statuses(request, descendants)}


def _act(request: HttpRequest, status_id: str, action: Any) -> TimelineEntry:
    """Run ``action`` on the post ``status_id`` shows (the original, for a repost) once the viewer may see it;
    the post as it is after."""
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    target = _entry(viewer, parse_id(status_id)).status.id
    try:
        action(uid=viewer, status_id=target)
    except exceptions.StatusNotFound:
        raise not_found() from None
    except exceptions.CannotRepost:
        raise ApiError(403, NOT_ALLOWED) from None
    return _entry(viewer, target)


@endpoint("POST", scopes={"POST": "write:favourites"})
def favourite(request: HttpRequest, status_id: str) -> Any:
    return _shown(request, _act(request, status_id, services.like_status))


@endpoint("POST", scopes={"POST": "write:favourites"})
def unfavourite(request: HttpRequest, status_id: str) -> Any:
    return _shown(request, _act(request, status_id, services.unlike_status))


def _my_repost(viewer: int, original_id: int) -> TimelineEntry | None:
    """The viewer's repost of ``original_id`` as the newest entry of their profile (what a repost makes), to
    answer with Mastodon's wrapper; None when something newer came first."""
    newest = selectors.get_status_messages(uid=viewer, timeline="profile", count=1, viewer_uid=viewer)
    if newest and newest[0].repost_id is not None and newest[0].status.id == original_id:
        return newest[0]
    return None


@endpoint("POST", scopes={"POST": "write:statuses"})
def reblog(request: HttpRequest, status_id: str) -> Any:
    entry = _act(request, status_id, services.repost_status)
    wrapper = _my_repost(request.viewer_uid, entry.status.id)  # type: ignore[attr-defined]
    return _shown(request, wrapper or entry)


@endpoint("POST", scopes={"POST": "write:statuses"})
def unreblog(request: HttpRequest, status_id: str) -> Any:
    return _shown(request, _act(request, status_id, services.undo_repost))


def _reactors(request: HttpRequest, status_id: str, reader: Any) -> Any:
    entry = _entry(request.viewer_uid, parse_id(status_id))  # type: ignore[attr-defined]
    people = reader(status_id=entry.status.id, count=limit_param(request, default=40, maximum=80))
    return [account(request, person) for person in people]


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def favourited_by(request: HttpRequest, status_id: str) -> Any:
    return _reactors(request, status_id, selectors.get_likers)


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def reblogged_by(request: HttpRequest, status_id: str) -> Any:
    return _reactors(request, status_id, selectors.get_reposters)

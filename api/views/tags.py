"""Tags: ``GET /api/v1/tags/:name`` (Mastodon's Tag entity: no usage history kept per day here; ``following`` for
the caller), ``POST /api/v1/tags/:name/follow`` and ``unfollow`` (``services.followed_tags``: the tag's public posts
reach the caller's home from then on) and ``GET /api/v1/followed_tags`` (the caller's, most recent follow first,
``Link`` pages cut by the follow's time in whole microseconds, as favourites are)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.tags import tag_entities, tag_entity
from api.http import ApiError, endpoint, id_param, limit_param, not_found, paginated
from timelines import exceptions
from timelines.selectors import followed_tags as followed
from timelines.services.followed_tags import clean_tag, follow_tag, unfollow_tag

MICROS = 1_000_000


def _name(name: str) -> str:
    try:
        return clean_tag(name)
    except exceptions.InvalidTag:
        raise not_found() from None


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def detail(request: HttpRequest, name: str) -> Any:
    return tag_entities(request, [_name(name)])[0]


@endpoint("POST", scopes={"POST": "write:follows"})
def follow(request: HttpRequest, name: str) -> Any:
    normalized = _name(name)
    try:
        follow_tag(uid=request.viewer_uid, tag=normalized)  # type: ignore[attr-defined]
    except exceptions.TooManyFollowedTags as error:
        raise ApiError(422, f"Validation failed: {error.message}") from None
    return tag_entity(request, normalized, following=True)


@endpoint("POST", scopes={"POST": "write:follows"})
def unfollow(request: HttpRequest, name: str) -> Any:
    normalized = _name(name)
    unfollow_tag(uid=request.viewer_uid, tag=normalized)  # type: ignore[attr-defined]
    return tag_entity(request, normalized, following=False)


def _seconds(cursor: int | None) -> float | None:
    return cursor / MICROS if cursor else None


@endpoint("GET", scopes={"GET": "read:follows"})
def followed_tags(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    limit = limit_param(request, default=100, maximum=200)  # Mastodon's for this list
    before = _seconds(id_param(request, "max_id"))
    newer_than = _seconds(id_param(request, "min_id"))
    if newer_than is not None:
        page = followed.get_followed_tags(uid=viewer, count=limit, before=before, after=newer_than, oldest_first=True)
    else:
        since = _seconds(id_param(request, "since_id"))
        page = followed.get_followed_tags(uid=viewer, count=limit, before=before, after=since)
    data = [tag_entity(request, tag.name, following=True) for tag in page]
    return paginated(request, data, [round(tag.followed_at * MICROS) for tag in page], limit=limit)

"""Tags: ``GET /api/v1/tags/:name`` (Mastodon's Tag entity: the site has tag pages, no usage history kept per day
here, and no one follows a tag), ``GET /api/v1/followed_tags`` (always empty) and ``POST /api/v1/tags/:name/follow``
and ``unfollow``, which answer an honest 404: following tags is not built."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.common import tag_page
from api.http import ApiError, endpoint, not_found
from timelines import text

NOT_SUPPORTED = "Following tags is not supported on this server"


def _name(name: str) -> str:
    normalized = text.normalize_tag(name.removeprefix("#"))
    if not text.is_tag(normalized):
        raise not_found()
    return normalized


@endpoint("GET", scopes={"GET": "read:statuses"}, auth="optional")
def detail(request: HttpRequest, name: str) -> Any:
    normalized = _name(name)
    return {"name": normalized, "url": tag_page(request, normalized), "history": [], "following": False}


@endpoint("POST", scopes={"POST": "write:follows"})
def follow(request: HttpRequest, name: str) -> Any:
    _name(name)
    raise ApiError(404, NOT_SUPPORTED)


@endpoint("POST", scopes={"POST": "write:follows"})
def unfollow(request: HttpRequest, name: str) -> Any:
    _name(name)
    raise ApiError(404, NOT_SUPPORTED)


@endpoint("GET", scopes={"GET": "read:follows"})
def followed(request: HttpRequest) -> Any:
    return []

"""Mastodon's Tag entity: a tag's name, its page, no usage history (none is kept per day here) and whether the
caller follows it (``selectors.followed_tags``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.common import tag_page
from timelines.selectors import followed_tags as followed


def tag_entity(request: HttpRequest, name: str, *, following: bool) -> dict[str, Any]:
    """Mastodon's Tag entity of ``name`` (normalised)."""
    return {"name": name, "url": tag_page(request, name), "history": [], "following": following}


def tag_entities(request: HttpRequest, names: list[str]) -> list[dict[str, Any]]:
    """Tag entities of ``names`` with ``following`` for the caller (one read when there is a caller)."""
    flags = followed.follows_tags(uid=request.viewer_uid, tags=names)  # type: ignore[attr-defined]
    return [tag_entity(request, name, following=flag) for name, flag in zip(names, flags, strict=True)]

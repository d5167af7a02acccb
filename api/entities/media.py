"""Mastodon's MediaAttachment entity, from an image of a post (``records.MediaItem``) or an upload not posted
yet (its SQL record, shaped the same way through ``services.pictures.item_of``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.common import absolute
from timelines.records import MediaItem


def _size(width: int, height: int) -> dict[str, Any]:
    return {"width": width, "height": height, "size": f"{width}x{height}", "aspect": width / height if height else 1}


def media_attachment(request: HttpRequest, item: MediaItem, *, ready: bool = True) -> dict[str, Any]:
    """The entity; ``ready`` False for an upload still processing: ``url`` and ``preview_url`` null (Mastodon's
    way of saying so), ``meta`` the upload's own size, no blurhash yet."""
    if not ready:
        return {
            "id": str(item.id),
            "type": item.type,
            "url": None,
            "preview_url": None,
            "remote_url": None,
            "preview_remote_url": None,
            "text_url": None,
            "meta": {"original": _size(item.width, item.height), "focus": {"x": item.focus_x, "y": item.focus_y}},
            "description": item.description or None,
            "blurhash": None,
        }
    # Another server's image: its copy here (fetched by a job), its own address as ``remote_url``; one stored
    # before copies were kept has only that address.
    remote = item.remote_url or None
    return {
        "id": str(item.id),
        "type": item.type,
        "url": item.url if item.linked_only else absolute(request, item.url),
        "preview_url": item.preview_url if item.linked_only else absolute(request, item.preview_url),
        "remote_url": remote,
        "preview_remote_url": None,
        "text_url": None,
        "meta": {
            "original": _size(item.width, item.height),
            "small": _size(item.preview_width, item.preview_height),
            "focus": {"x": item.focus_x, "y": item.focus_y},
        },
        "description": item.description or None,
        "blurhash": item.blurhash or None,
    }

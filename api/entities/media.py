"""Mastodon's MediaAttachment entity, from an image of a post (``records.MediaItem``) or an upload not posted
yet (its SQL record, shaped the same way through ``services.pictures.item_of``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.common import absolute
from timelines.records import MediaItem


def _size(width: int, height: int) -> dict[str, Any]:
    return {"width": width, "height": height, "size": f"{width}x{height}", "aspect": width / height if height else 1}


def media_attachment(request: HttpRequest, item: MediaItem) -> dict[str, Any]:
    remote = item.remote_url or None  # another server's image: its own address, no copy here
    return {
        "id": str(item.id),
        "type": item.type,
        "url": remote or absolute(request, item.url),
        "preview_url": remote or absolute(request, item.preview_url),
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

"""Other servers' images on their posts (a Note's ``attachment``): kept as links, never copied nor loaded here.

Each ``Document`` or ``Image`` whose ``mediaType`` is an image (``image/*``; videos, audio and anything else are
left out) becomes a ``records.MediaItem`` with its ``remote_url``, alt text (``name``), blurhash, size and
focal point, at most ``MAX_ITEMS`` of them. Pages show them as links to the image on its server (named by the
alt text: the site's Content-Security-Policy loads no picture from elsewhere) and the API gives that address as
``remote_url``. Nothing is taken from a server whose domain block rejects its media.
"""

from __future__ import annotations

from typing import Any

from federation import client
from federation.models import RemoteActor
from federation.services import domain_blocks
from timelines.records import MediaItem

MAX_ITEMS = 4
MAX_DESCRIPTION = 1500
MAX_URL = 2048


def _url(value: Any) -> str | None:
    """An attachment's address: a string, or the first ``Link``'s ``href``; http(s) only."""
    if isinstance(value, list):
        value = next((item for item in value if isinstance(item, str | dict)), None)
    if isinstance(value, dict):
        value = value.get("href")
    if not isinstance(value, str) or len(value) > MAX_URL:
        return None
    schemes = ("https://", "http://") if client.insecure() else ("https://",)
    return value if value.startswith(schemes) else None


def _size(value: Any) -> int:
    return value if isinstance(value, int) and 0 < value < 100_000 else 0


def _focus(value: Any) -> tuple[float, float]:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(part, int | float) for part in value):
        return max(-1.0, min(1.0, float(value[0]))), max(-1.0, min(1.0, float(value[1])))
    return 0.0, 0.0


def images_of(note: dict[str, Any], author: RemoteActor) -> tuple[MediaItem, ...]:
    """The images of remote ``note`` by ``author`` to show here (none from a server whose media are rejected)."""
    found = note.get("attachment")
    found = found if isinstance(found, list) else [found] if isinstance(found, dict) else []
    if not found or domain_blocks.rejects_media(author.domain):
        return ()
    items = []
    for document in found:
        if not isinstance(document, dict) or document.get("type") not in ("Document", "Image"):
            continue
        media_type = document.get("mediaType")
        if not isinstance(media_type, str) or not media_type.lower().startswith("image/"):
            continue
        url = _url(document.get("url"))
        if url is None:
            continue
        name = document.get("name")
        blurhash = document.get("blurhash")
        width, height = _size(document.get("width")), _size(document.get("height"))
        focus_x, focus_y = _focus(document.get("focalPoint"))
        items.append(
            MediaItem(
                id=0,
                token="",
                width=width,
                height=height,
                preview_width=width,
                preview_height=height,
                description=name.strip()[:MAX_DESCRIPTION] if isinstance(name, str) else "",
                blurhash=blurhash if isinstance(blurhash, str) and len(blurhash) <= 100 else "",
                focus_x=focus_x,
                focus_y=focus_y,
                remote_url=url,
            )
        )
        if len(items) == MAX_ITEMS:
            break
    return tuple(items)

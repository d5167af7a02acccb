"""Media: ``POST /api/v1/media`` and ``/api/v2/media`` (a multipart ``file`` with ``description`` and
``focus``), and ``GET``/``PUT /api/v1/media/:id`` for the caller's own uploads. An upload is processed before
the answer (``media.processing``: a few hundred milliseconds for a phone photo), so v2 answers 200 with its
``url`` at once, as Mastodon does for small images; it belongs to nobody's post until ``media_ids[]`` of
``POST /api/v1/statuses`` claims it, and is deleted after a day if nothing does."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.media import media_attachment
from api.http import ApiError, endpoint, not_found, text_param
from api.limits import rate_limited
from media import limits as media_limits
from media import services as media_services
from media.processing import InvalidImage
from timelines.services.pictures import item_of

NO_FILE = "Validation failed: File can't be blank"


def _upload(request: HttpRequest) -> dict[str, Any]:
    upload = request.FILES.get("file")
    if upload is None:
        raise ApiError(422, NO_FILE)
    if upload.size > media_limits.max_upload_bytes():
        raise ApiError(422, f"Validation failed: File must be at most {media_limits.max_upload_bytes()} bytes")
    with rate_limited(request, "media"):
        try:
            picture = media_services.upload(
                owner=request.viewer_uid,  # type: ignore[attr-defined]
                data=upload.read(),
                description=text_param(request, "description") or "",
                focus=text_param(request, "focus"),
            )
        except InvalidImage as error:
            raise ApiError(422, f"Validation failed: {error.message}") from None
    return media_attachment(request, item_of(picture))


@endpoint("POST", scopes={"POST": "write:media"})
def upload_v1(request: HttpRequest) -> Any:
    return _upload(request)


@endpoint("POST", scopes={"POST": "write:media"})
def upload_v2(request: HttpRequest) -> Any:
    return _upload(request)


@endpoint("GET", "PUT", scopes={"GET": "write:media", "PUT": "write:media"})
def detail(request: HttpRequest, media_id: str) -> Any:
    owner = request.viewer_uid  # type: ignore[attr-defined]
    try:
        if request.method == "GET":
            return media_attachment(request, item_of(media_services.get_own(owner=owner, media_id=media_id)))
        picture = media_services.update(
            owner=owner,
            media_id=media_id,
            description=text_param(request, "description"),
            focus=text_param(request, "focus"),
        )
    except media_services.MediaNotFound:
        raise not_found() from None
    except (media_services.InvalidMedia, InvalidImage) as error:
        raise ApiError(422, f"Validation failed: {error.message}") from None
    return media_attachment(request, item_of(picture))

"""Media: ``POST /api/v1/media`` and ``/api/v2/media`` (a multipart ``file`` with ``description`` and
``focus``), and ``GET``/``PUT /api/v1/media/:id`` for the caller's own uploads, as Mastodon answers them:
v1 processes before answering, whatever the size; v2 processes a small image before answering (200 with its
``url``) and a large one in a job (``timelines.services.media_jobs``), answering 202 at once with ``url: null``;
``GET /api/v1/media/:id`` is then 206 while it is processing, 200 once ready, 422 when the job refused it, and a
post carrying it before it is ready is refused with 422. An upload belongs to nobody's post until ``media_ids[]``
of ``POST /api/v1/statuses`` claims it, and is deleted after a day if nothing does."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse

from api.entities.media import media_attachment
from api.http import ApiError, endpoint, not_found, text_param
from api.limits import rate_limited
from media import limits as media_limits
from media import services as media_services
from media.models import Attachment
from media.processing import InvalidImage
from timelines.services import media_jobs
from timelines.services.pictures import item_of

NO_FILE = "Validation failed: File can't be blank"


def _entity(request: HttpRequest, picture: Attachment) -> Any:
    """The upload's entity, with Mastodon's status code: 206 while processing, 422 when processing refused it."""
    if picture.state == Attachment.FAILED:
        raise ApiError(422, f"Validation failed: {picture.error or 'the image could not be processed'}")
    entity = media_attachment(request, item_of(picture), ready=picture.ready)
    return entity if picture.ready else JsonResponse(entity, status=206)


def _upload(request: HttpRequest, *, defer: bool) -> Any:
    upload = request.FILES.get("file")
    if upload is None:
        raise ApiError(422, NO_FILE)
    if upload.size > media_limits.max_upload_bytes():
        raise ApiError(422, f"Validation failed: File must be at most {media_limits.max_upload_bytes()} bytes")
    with rate_limited(request, "media"):
        try:
            store = media_jobs.upload_image if defer else media_services.upload
            picture = store(
                owner=request.viewer_uid,  # type: ignore[attr-defined]
                data=upload.read(),
                description=text_param(request, "description") or "",
                focus=text_param(request, "focus"),
            )
        except InvalidImage as error:
            raise ApiError(422, f"Validation failed: {error.message}") from None
    if picture.ready:
        return media_attachment(request, item_of(picture))
    return JsonResponse(media_attachment(request, item_of(picture), ready=False), status=202)


@endpoint("POST", scopes={"POST": "write:media"})
def upload_v1(request: HttpRequest) -> Any:
    return _upload(request, defer=False)


@endpoint("POST", scopes={"POST": "write:media"})
def upload_v2(request: HttpRequest) -> Any:
    return _upload(request, defer=True)


@endpoint("GET", "PUT", scopes={"GET": "write:media", "PUT": "write:media"})
def detail(request: HttpRequest, media_id: str) -> Any:
    owner = request.viewer_uid  # type: ignore[attr-defined]
    try:
        if request.method == "GET":
            return _entity(request, media_services.get_own(owner=owner, media_id=media_id))
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
    return _entity(request, picture)

"""Serving pictures (``/media/...``, routed by ``media.urls``), with the per-recipient policy (issue 21, "Privacy").

``/media/<token>/<original|preview>`` is checked on every request rather than signed and expiring: the check is
one SQL row and, for an attached image, the post's policy (one Redis round trip, the same as the post's own page),
so a post deleted, removed or hidden from the viewer stops its images at once. An unattached upload is seen by its
owner only; avatars and headers are public like the profile's name. The file is streamed from the storage API
with its own type, ``nosniff`` and ``inline``; the URL names no file of the user's.
"""

from __future__ import annotations

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest
from django.views.decorators.http import require_safe

from media.models import Attachment
from timelines import exceptions, selectors

_GONE = ("deleted", "removed", "suspended")


def viewer_uid(request: HttpRequest) -> int | None:
    return getattr(request.user, "uid", None) if request.user.is_authenticated else None


def may_view(attachment: Attachment, viewer: int | None) -> bool:
    if attachment.kind != Attachment.IMAGE:
        return True
    if attachment.status_id is None:
        return viewer is not None and viewer == attachment.owner
    try:
        status = selectors.get_status(status_id=attachment.status_id, viewer_uid=viewer)
    except exceptions.StatusNotFound:
        return False
    return not any(status.extra.get(flag) for flag in _GONE)


@require_safe
def serve(request: HttpRequest, token: str, variant: str) -> FileResponse:
    attachment = Attachment.objects.filter(token=token).first()
    if attachment is None or not may_view(attachment, viewer_uid(request)):
        raise Http404()
    name = attachment.original if variant == "original" else attachment.preview
    try:
        handle = default_storage.open(name, "rb")
    except FileNotFoundError:
        raise Http404() from None
    response = FileResponse(handle, content_type=attachment.content_type, as_attachment=False)
    response["Content-Disposition"] = "inline"
    response["X-Content-Type-Options"] = "nosniff"
    # An image of a post that is not public must not be kept by shared caches.
    response["Cache-Control"] = "private, max-age=3600" if attachment.status_id else "private, no-store"
    return response

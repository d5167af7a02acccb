"""Serving pictures (``/media/...``, routed by ``media.urls``), with the per-recipient policy (issue 21, "Privacy").

``/media/<token>/<original|preview>`` is checked on every request rather than signed and expiring: the check is
one SQL row and, for an attached image, the post's policy (one Redis round trip, the same as the post's own page),
so a post deleted, removed or hidden from the viewer stops its images at once. An unattached upload is seen by its
owner only; avatars and headers are public like the profile's name. The file is streamed from the storage API
with its own type, ``nosniff`` and ``inline``; the URL names no file of the user's.

Another server's image (issue 22) is served the same way once a job has cached it; until then, or when it could
not be, its URL answers a stand-in picture drawn here.

``/@<login>/avatar`` is the avatar a page shows beside each post: it names the person, not a file, so a post's
cached HTML never needs the author's current picture; it serves their avatar, or the generated stand-in
(``media.defaults``), revalidated by its ETag on each page (a 304 while unchanged).
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from media import capabilities, defaults
from media.models import Attachment
from timelines import exceptions, selectors

_GONE = ("deleted", "removed", "suspended")
VARIANTS = ("original", "preview")


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


def _sent_with_key(request: HttpRequest, attachment: Attachment) -> bool:
    """The request holds the capability key of an image of a local post that is still there (not deleted,
    removed, or by a suspended author): another server the post was sent to fetches it (``media.capabilities``)."""
    if attachment.kind != Attachment.IMAGE or attachment.status_id is None or attachment.remote_url:
        return False
    if not capabilities.is_key(attachment.token, request.GET.get(capabilities.KEY_PARAM)):
        return False
    try:
        if selectors.get_user_suspended(uid=attachment.owner):
            return False
    except exceptions.UnknownUser:
        return False
    # As its author reads it: there, and not deleted or removed.
    return may_view(attachment, attachment.owner)


def _moderates(request: HttpRequest) -> bool:
    """Moderators see every post in the Moderation views (private ones included), so its images too."""
    user = request.user
    return bool(user.is_authenticated and user.is_staff and user.has_perm("accounts.remove_post"))


def _file_response(name: str, content_type: str) -> HttpResponse:
    """The stored file ``name``: streamed from the storage API, or, when the proxy sends files itself
    (``SOCIALSITE_MEDIA_ACCEL_REDIRECT``, nginx's ``internal`` location on ``MEDIA_ROOT``), an empty answer
    naming it in ``X-Accel-Redirect``, so the web process spends no time on the bytes."""
    prefix = getattr(settings, "SOCIALSITE_MEDIA_ACCEL_REDIRECT", "")
    if prefix and _filesystem():
        if not default_storage.exists(name):
            raise Http404()
        response = HttpResponse(content_type=content_type)
        response["X-Accel-Redirect"] = prefix.rstrip("/") + "/" + name
        return response
    try:
        handle = default_storage.open(name, "rb")
    except FileNotFoundError:
        raise Http404() from None
    return FileResponse(handle, content_type=content_type, as_attachment=False)


def _filesystem() -> bool:
    return settings.STORAGES["default"]["BACKEND"].endswith("FileSystemStorage")


def _stand_in(attachment: Attachment) -> HttpResponse:
    """What another server's image not cached here answers: a picture saying so (``no-store``, so the copy shows
    once a job has fetched it)."""
    waiting = attachment.state == Attachment.PROCESSING
    response = HttpResponse(
        defaults.unavailable_svg("Loading the image from its server" if waiting else "Image not available here"),
        content_type="image/svg+xml",
    )
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def serve(request: HttpRequest, token: str, variant: str) -> HttpResponse:
    attachment = Attachment.objects.filter(token=token).first() if variant in VARIANTS else None
    # A processing upload has no file yet (never its source); another server's image not cached has a stand-in.
    if attachment is None or not (attachment.ready or attachment.remote_url):
        raise Http404()
    if (
        not may_view(attachment, viewer_uid(request))
        and not (attachment.status_id and _moderates(request))
        and not _sent_with_key(request, attachment)
    ):
        raise Http404()
    if not attachment.ready:
        response = _stand_in(attachment)
        response["X-Content-Type-Options"] = "nosniff"
        return response
    name = attachment.original if variant == "original" else attachment.preview
    response = _file_response(name, attachment.content_type)
    response["Content-Disposition"] = "inline"
    response["X-Content-Type-Options"] = "nosniff"
    if attachment.kind != Attachment.IMAGE:
        # An avatar or header is public, and its URL changes with the picture.
        response["Cache-Control"] = "public, max-age=86400"
    else:
        # An image of a post that is not public must not be kept by shared caches.
        response["Cache-Control"] = "private, max-age=3600" if attachment.status_id else "private, no-store"
    return response


@require_safe
def avatar(request: HttpRequest, login: str) -> HttpResponse:
    try:
        user = selectors.get_user_by_login(login=login)
    except exceptions.UnknownUser:
        raise Http404() from None
    picture = None
    if user.avatar and not user.suspended:
        picture = Attachment.objects.filter(token=user.avatar, kind=Attachment.AVATAR).first()
    # Revalidated on every page (a 304 while it is the same picture), so a new avatar shows at once.
    tag = f'"{picture.token}"' if picture is not None else f'"d-{defaults.version(name=user.name, login=user.login)}"'
    response: HttpResponse
    if tag in request.headers.get("If-None-Match", ""):
        response = HttpResponse(status=304)
    elif picture is not None:
        response = _file_response(picture.original, picture.content_type)
    else:
        response = HttpResponse(defaults.avatar_svg(name=user.name, login=user.login), content_type="image/svg+xml")
        response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    response["ETag"] = tag
    response["Content-Disposition"] = "inline"
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "no-cache"
    return response

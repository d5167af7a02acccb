"""Editing one's own account (``PATCH /api/v1/accounts/update_credentials``): display name, bio (``note``),
``avatar`` and ``header`` (multipart files),
whether the account is private (``locked``) and the default visibility of its posts (``source[privacy]``),
through the same services as ``/settings/profile``; and the
posting preferences that follow from it (``GET /api/v1/preferences``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.accounts import credential_account
from api.http import ApiError, endpoint, file_param, param, text_param
from media import limits as media_limits
from timelines import exceptions, selectors, services, validation
from timelines.services.pictures import set_picture

TRUE = ("1", "true", "on", "yes")
FALSE = ("0", "false", "off", "no", "")


def _flag(value: object, name: str) -> bool | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in TRUE + FALSE:
        return value.lower() in TRUE
    raise ApiError(422, f"Validation failed: {name} must be true or false")


@endpoint("PATCH", scopes={"PATCH": "write:accounts"})
def update_credentials(request: HttpRequest) -> Any:
    viewer = request.viewer_uid  # type: ignore[attr-defined]
    name = text_param(request, "display_name")
    note = text_param(request, "note")
    locked = _flag(param(request, "locked"), "locked")
    privacy = text_param(request, "source[privacy]")
    pictures = {kind: file_param(request, kind) for kind in ("avatar", "header")}
    try:
        # Name and bio checked before a picture is stored, so a bad one changes nothing at all.
        if name is not None:
            validation.clean_name(name)
        if note is not None:
            validation.clean_bio(note)
        for kind, upload in pictures.items():
            if upload is None:
                continue
            if upload.size > media_limits.max_upload_bytes():
                raise ApiError(
                    422, f"Validation failed: {kind} must be at most {media_limits.max_upload_bytes()} bytes"
                )
            set_picture(uid=viewer, kind=kind, data=upload.read())
        # Checked and written before the privacy flag, so a bad name or bio changes nothing at all.
        services.update_profile(uid=viewer, name=name, bio=note, default_visibility=privacy or None)
        if locked is not None:
            services.set_private(uid=viewer, private=locked)
    except (
        exceptions.InvalidName,
        exceptions.InvalidBio,
        exceptions.InvalidVisibility,
        exceptions.InvalidMedia,
    ) as error:
        raise ApiError(422, f"Validation failed: {error.message}") from None
    except exceptions.UnknownUser:
        raise ApiError(401, "The access token is invalid") from None
    me = selectors.get_user(uid=viewer)
    return credential_account(request, me, follow_requests=selectors.get_follow_request_count(uid=viewer))


@endpoint("GET", scopes={"GET": "read:accounts"})
def preferences(request: HttpRequest) -> Any:
    """Posting defaults as Mastodon names them: the account's default visibility (the site's post box's)."""
    me = selectors.get_user(uid=request.viewer_uid)  # type: ignore[attr-defined]
    return {
        "posting:default:visibility": me.default_visibility,
        "posting:default:sensitive": False,
        "posting:default:language": None,
        "reading:expand:media": "default",
        "reading:expand:spoilers": False,
    }

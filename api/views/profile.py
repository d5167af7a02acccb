"""Editing one's own account (``PATCH /api/v1/accounts/update_credentials``): display name, bio (``note``) and
whether the account is private (``locked``), through the same services as ``/settings/profile``; and the
posting preferences that follow from it (``GET /api/v1/preferences``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from api.entities.accounts import credential_account
from api.http import ApiError, endpoint, param, text_param
from timelines import exceptions, selectors, services

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
    if privacy not in (None, "public", "private"):
        raise ApiError(422, "Validation failed: source[privacy] must be public or private here")
    try:
        # Checked and written before the privacy flag, so a bad name or bio changes nothing at all.
        services.update_profile(uid=viewer, name=name, bio=note)
        if locked is not None:
            services.set_private(uid=viewer, private=locked)
        elif privacy is not None:
            # The default visibility of new posts is the account's: private accounts post to followers only.
            services.set_private(uid=viewer, private=privacy == "private")
    except (exceptions.InvalidName, exceptions.InvalidBio) as error:
        raise ApiError(422, f"Validation failed: {error.message}") from None
    except exceptions.UnknownUser:
        raise ApiError(401, "The access token is invalid") from None
    me = selectors.get_user(uid=viewer)
    return credential_account(request, me, follow_requests=selectors.get_follow_request_count(uid=viewer))


@endpoint("GET", scopes={"GET": "read:accounts"})
def preferences(request: HttpRequest) -> Any:
    """Posting defaults as Mastodon names them: a private account posts to followers only."""
    me = selectors.get_user(uid=request.viewer_uid)  # type: ignore[attr-defined]
    return {
        "posting:default:visibility": "private" if me.private else "public",
        "posting:default:sensitive": False,
        "posting:default:language": None,
        "reading:expand:media": "default",
        "reading:expand:spoilers": False,
    }

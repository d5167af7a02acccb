"""The instance's description (``/api/v1/instance``, ``/api/v2/instance``) with the site's real limits, and the
endpoints clients call at start-up for features the site does not have, answered with an honest empty list."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpRequest

from api.entities.common import absolute, avatar
from api.http import endpoint
from media import limits as media_limits
from timelines import limits

SOFTWARE_VERSION = "0.1.0"
# Clients parse the Mastodon version at the start to know which endpoints exist.
VERSION = f"4.3.0 (compatible; socialsite {SOFTWARE_VERSION})"
TITLE = "socialsite"
DESCRIPTION = "A Twitter-like social network: short posts, replies, reposts, likes and follows."
SOURCE_URL = "https://github.com/"

_STATUSES = {
    "max_characters": limits.MAX_MESSAGE_LENGTH,
    "max_media_attachments": media_limits.MAX_PER_POST,
    "characters_reserved_per_url": 0,
}


def _media() -> dict[str, Any]:
    """Images only (no video): the formats, bytes and pixels ``media.processing`` accepts."""
    return {
        "supported_mime_types": ["image/jpeg", "image/png", "image/gif", "image/webp"],
        "image_size_limit": media_limits.max_upload_bytes(),
        "image_matrix_limit": media_limits.MAX_PIXELS,
        "video_size_limit": 0,
        "video_frame_rate_limit": 0,
        "video_matrix_limit": 0,
        "description_limit": media_limits.MAX_DESCRIPTION_LENGTH,
    }


# Polls are not supported: no options allowed.
_POLLS = {"max_options": 0, "max_characters_per_option": 0, "min_expiration": 0, "max_expiration": 0}


def _user_count() -> int:
    return get_user_model().objects.filter(is_active=True, uid__isnull=False).count()


def _streaming(request: HttpRequest) -> str:
    return ("wss://" if request.is_secure() else "ws://") + request.get_host()


@endpoint("GET", auth="optional")
def instance_v1(request: HttpRequest) -> Any:
    return {
        "uri": request.get_host(),
        "title": TITLE,
        "short_description": DESCRIPTION,
        "description": DESCRIPTION,
        "email": "",
        "version": VERSION,
        "urls": {"streaming_api": _streaming(request)},
        "stats": {"user_count": _user_count(), "status_count": 0, "domain_count": 1},
        "thumbnail": avatar(request),
        "languages": ["en"],
        "registrations": True,
        "approval_required": False,
        "invites_enabled": False,
        "configuration": {
            "accounts": {"max_featured_tags": 0},
            "statuses": _STATUSES,
            "media_attachments": _media(),
            "polls": _POLLS,
        },
        "contact_account": None,
        "rules": [],
    }


@endpoint("GET", auth="optional")
def instance_v2(request: HttpRequest) -> Any:
    return {
        "domain": request.get_host(),
        "title": TITLE,
        "version": VERSION,
        "source_url": SOURCE_URL,
        "description": DESCRIPTION,
        "usage": {"users": {"active_month": _user_count()}},
        "thumbnail": {"url": avatar(request)},
        "icon": [],
        "languages": ["en"],
        "configuration": {
            "urls": {"streaming": _streaming(request), "status": None, "about": absolute(request, "/")},
            "vapid": {"public_key": ""},
            "accounts": {"max_featured_tags": 0, "max_pinned_statuses": 0},
            "statuses": _STATUSES,
            "media_attachments": _media(),
            "polls": _POLLS,
            "translation": {"enabled": False},
        },
        "registrations": {"enabled": True, "approval_required": False, "message": None, "url": None},
        "api_versions": {"mastodon": 2},
        "contact": {"email": "", "account": None},
        "rules": [],
    }


@endpoint("GET", auth="optional")
def empty_list(request: HttpRequest) -> Any:
    """Custom emojis, announcements, filters...: features the site does not have, so none of them exist."""
    return []

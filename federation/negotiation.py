"""Which requests ask for ActivityPub: an ``Accept`` naming ``application/activity+json`` or
``application/ld+json`` (Mastodon's test), not merely accepting anything."""

from __future__ import annotations

from django.http import HttpRequest

from federation import contexts


def wants_activity(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "").lower()
    return any(media_type in accept for media_type in contexts.ACTIVITY_TYPES)

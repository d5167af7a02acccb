"""Mastodon's Account (with ``source`` for its owner) and Relationship entities."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.http import HttpRequest

from api.entities.common import avatar_path, base, canonical, html_at, iso
from timelines import uris
from timelines.records import User
from timelines.selectors import Relationship
from timelines.templatetags.timeline_format import profile_url

# Accounts shaped lately, by (record, request origin, canonical origin): pages name the same people call after
# call, and shaping one was a tenth of a home page's entity time. Records are frozen and read fresh from Redis on
# every call (a changed hash is a different record), so an entry never outlives what it was shaped from.
ACCOUNT_CACHE_SIZE = 4096


def account(request: HttpRequest, user: User) -> dict[str, Any]:
    """Mastodon's Account of ``user``: a dict of the caller's own, copied from the one shaped for this record, with
    its lists (``emojis``, ``fields``, ``roles``) made here, so no caller's change reaches the shared one."""
    return {**_account(user, base(request), canonical(request)), "emojis": [], "fields": [], "roles": []}


@lru_cache(maxsize=ACCOUNT_CACHE_SIZE)
def _account(user: User, origin: str, canonical_origin: str) -> dict[str, Any]:
    url = origin + profile_url(user.acct)
    picture = f"{origin}/media/{user.avatar}/original" if user.avatar else origin + avatar_path()
    header = f"{origin}/media/{user.header}/original" if user.header else ""
    return {
        "id": str(user.id),
        "username": user.login,
        "acct": user.acct,
        "display_name": user.name,
        "locked": user.private,
        "bot": False,
        "discoverable": True,
        "indexable": False,
        "group": False,
        "noindex": False,
        "created_at": iso(user.signup),
        "note": html_at(origin, user.bio, user.bio_mentions) if user.bio else "",
        "url": url,
        # The canonical identity (timelines.uris: the configured domain, not this request's host).
        "uri": uris.account_uri(user.login, base=canonical_origin),
        "avatar": picture,
        "avatar_static": picture,
        "header": header,
        "header_static": header,
        # Another server's account: its server's counts when known (as Mastodon gives them).
        "followers_count": user.followers_count,
        "following_count": user.following_count,
        "statuses_count": user.posts_count,
        "last_status_at": None,
    }


def credential_account(request: HttpRequest, user: User, *, follow_requests: int) -> dict[str, Any]:
    """The Account of ``verify_credentials``: with ``source``, what the owner edits."""
    return {
        **account(request, user),
        "source": {
            "privacy": user.default_visibility,
            "sensitive": False,
            "language": "",
            "note": user.bio,
            "fields": [],
            "follow_requests_count": follow_requests,
        },
    }


def relationship(other_uid: int, relation: Relationship) -> dict[str, Any]:
    return {
        "id": str(other_uid),
        "following": relation.following,
        "showing_reblogs": relation.following,
        "notifying": False,
        "languages": None,
        "followed_by": relation.followed_by,
        "blocking": relation.blocking,
        "blocked_by": relation.blocked_by,
        "muting": relation.muting,
        "muting_notifications": relation.muting,
        "requested": relation.requested,
        "requested_by": False,
        "domain_blocking": False,
        "endorsed": False,
        "note": "",
    }

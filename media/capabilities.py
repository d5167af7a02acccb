"""Capability keys for the images of posts that are not public, as other servers fetch them.

A followers-only or direct post goes to other servers with its images' addresses; their servers then fetch the
files without saying for whom (Mastodon fetches media unsigned), so the policy cannot judge the request. The
address they get carries a key (``?key=``, an HMAC of the image's token under the site's secret key): whoever
holds it was sent the post, as with Mastodon's unguessable media addresses. The site's own pages never use it:
they keep the per-viewer policy. A keyed address still stops working when the post is deleted, removed or its
author suspended (``timelines.views.media``).
"""

from __future__ import annotations

from django.utils.crypto import constant_time_compare, salted_hmac

_SALT = "socialsite.media.capability"
KEY_PARAM = "key"


def key_for(token: str) -> str:
    """The key of the image whose URL token is ``token``."""
    return salted_hmac(_SALT, token, algorithm="sha256").hexdigest()[:40]


def is_key(token: str, key: str | None) -> bool:
    return bool(key) and constant_time_compare(key_for(token), key or "")


def keyed_url(url: str, token: str) -> str:
    """``url`` (an image's address) with the key of ``token``."""
    return f"{url}?{KEY_PARAM}={key_for(token)}"

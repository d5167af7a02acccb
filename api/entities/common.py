"""What the entities share: Mastodon's dates, absolute URLs of the site's pages, and post text as Mastodon's
HTML (mentions as ``h-card`` links, tags as ``hashtag`` links), cut by the same parser the site renders with."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from functools import lru_cache

from django.http import HttpRequest
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import escape

from timelines import text, uris
from timelines.templatetags.status_text import LINK_REL
from timelines.templatetags.timeline_format import profile_url, status_url

DEFAULT_AVATAR = "api/avatar.png"
# Dates formatted lately: a page of 20 posts formats 40 (each post's and its author's), mostly the same ones
# page after page; formatting them was about 4% of a home page's Python time.
ISO_CACHE_SIZE = 8192


def iso(timestamp: float) -> str:
    """A Unix time as Mastodon writes dates: UTC with milliseconds and ``Z``."""
    return _iso(float(timestamp))


@lru_cache(maxsize=ISO_CACHE_SIZE)
def _iso(timestamp: float) -> str:
    moment = datetime.fromtimestamp(max(0.0, timestamp), UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def base(request: HttpRequest) -> str:
    """``scheme://host`` of the request, worked out once per request (Django validates the host each time)."""
    found = getattr(request, "_api_base", None)
    if found is None:
        found = request.build_absolute_uri("/")[:-1]
        request._api_base = found  # type: ignore[attr-defined]
    return found


def canonical(request: HttpRequest) -> str:
    """The origin of local accounts' and statuses' URIs (``uris.origin``: from the settings, not the request's host),
    read once per request."""
    found = getattr(request, "_api_canonical", None)
    if found is None:
        found = uris.origin()
        request._api_canonical = found  # type: ignore[attr-defined]
    return found


def absolute(request: HttpRequest, path: str) -> str:
    return base(request) + path


@lru_cache(maxsize=1)
def _tag_url_pattern() -> str:
    return reverse("timelines:tag", args=["TAG"])


@lru_cache(maxsize=1)
def avatar_path() -> str:
    """The path of the default picture (``avatar``), for a caller that holds the origin already."""
    return static(DEFAULT_AVATAR)


def profile(request: HttpRequest, login: str) -> str:
    return absolute(request, profile_url(login))


def status_page(request: HttpRequest, login: str, status_id: int) -> str:
    return absolute(request, status_url(login, status_id))


def tag_page(request: HttpRequest, tag: str) -> str:
    return absolute(request, _tag_url_pattern().replace("TAG", text.normalize_tag(tag)))


def avatar(request: HttpRequest) -> str:
    """The generated default picture every account shows until the site stores pictures."""
    return absolute(request, avatar_path())


def html(request: HttpRequest, message: str, known_logins: Iterable[str] = ()) -> str:
    """``message`` as Mastodon's HTML: paragraphs, ``<br>`` line breaks, links; everything else escaped.
    ``@login`` is a link only for ``known_logins`` (whom the post really mentions). Pages repeat the same posts,
    so the HTML is kept per (host, message, mentions)."""
    return html_at(base(request), message, tuple(known_logins))


@lru_cache(maxsize=4096)
def html_at(origin: str, message: str, known_logins: tuple[str, ...]) -> str:
    """``html`` for a caller that holds the request's origin (``base``) already."""
    known = {login.lower() for login in known_logins}
    paragraphs: list[str] = []
    for block in message.split("\n\n"):
        pieces: list[str] = []
        for segment in text.segments(block):
            if segment.kind == "url":
                url = escape(segment.value)
                pieces.append(f'<a href="{url}" rel="{LINK_REL}" target="_blank">{url}</a>')
            elif segment.kind == "mention" and segment.value.lower() in known:
                href = escape(origin + profile_url(segment.value.lower()))
                pieces.append(
                    f'<span class="h-card" translate="no"><a href="{href}" class="u-url mention">'
                    f"@<span>{escape(segment.value)}</span></a></span>"
                )
            elif segment.kind == "tag":
                href = escape(origin + _tag_url_pattern().replace("TAG", text.normalize_tag(segment.value)))
                pieces.append(
                    f'<a href="{href}" class="mention hashtag" rel="tag">#<span>{escape(segment.value)}</span></a>'
                )
            elif segment.kind == "mention":
                pieces.append(escape("@" + segment.value))
            else:
                pieces.append(escape(segment.value).replace("\n", "<br>"))
        if pieces:
            paragraphs.append("<p>" + "".join(pieces) + "</p>")
    return "".join(paragraphs)

"""Mastodon's Status and Context entities from timeline entries (``records.TimelineEntry``).

An entry that came through a repost becomes Mastodon's wrapper: a status with the repost's own id, the
reposter as its ``account`` and the original in ``reblog``. The people a page names are read in one round trip
(``selectors.get_users``); an entry whose author is gone is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest

from api.entities.accounts import account
from api.entities.common import canonical, html, iso, profile, status_page, tag_page
from api.entities.media import media_attachment
from timelines import selectors, uris, visibility
from timelines.records import Status, StatusVersion, TimelineEntry, User


def _people(entries: Sequence[TimelineEntry]) -> dict[int, User]:
    uids: list[int] = []
    for entry in entries:
        uids.append(entry.status.uid)
        if entry.reposted_by is not None:
            uids.append(entry.reposted_by.id)
    wanted = list(dict.fromkeys(uids))
    return {user.id: user for user in selectors.get_users(uids=wanted)} if wanted else {}


def _account(request: HttpRequest, user: User, accounts: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """``user``'s Account, shaped once per page however many of its statuses name them (the dict is shared)."""
    shaped = accounts.get(user.id)
    if shaped is None:
        shaped = accounts[user.id] = account(request, user)
    return shaped


def _status(
    request: HttpRequest, status: Status, author: User, entry: TimelineEntry, accounts: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    # Another server's post keeps the URI and URL its server gave it (federation stores them with it).
    url = status.extra.get("url") or status_page(request, status.login, status.id)
    return {
        "id": str(status.id),
        "uri": status.extra.get("uri") or uris.status_uri(status.login, status.id, base=canonical(request)),
        "url": url,
        "created_at": iso(status.posted),
        "edited_at": iso(status.edited_at) if status.edited_at is not None else None,
        "account": _account(request, author, accounts),
        "content": html(request, status.message, status.mention_logins),
        "text": None,
        "visibility": visibility.of_status(status),
        "sensitive": status.sensitive,
        "spoiler_text": "",
        "language": None,
        "media_attachments": [media_attachment(request, item) for item in status.media],
        "application": None,
        "mentions": [
            {"id": str(uid), "username": login, "acct": login, "url": profile(request, login)}
            for uid, login in zip(status.mentions, status.mention_logins, strict=False)
        ],
        "tags": [{"name": tag, "url": tag_page(request, tag)} for tag in status.tags],
        "emojis": [],
        "reblogs_count": status.repost_count,
        "favourites_count": status.like_count,
        "replies_count": status.reply_count,
        "in_reply_to_id": str(status.in_reply_to) if status.in_reply_to is not None else None,
        "in_reply_to_account_id": str(status.in_reply_to_uid) if status.in_reply_to_uid is not None else None,
        "reblog": None,
        "poll": None,
        "card": None,
        "favourited": entry.liked,
        "reblogged": entry.reposted,
        "muted": False,
        "bookmarked": entry.bookmarked,
        "pinned": False,
        "filtered": [],
    }


def _entry(
    request: HttpRequest,
    entry: TimelineEntry,
    people: dict[int, User],
    accounts: dict[int, dict[str, Any]] | None = None,
) -> dict[str, Any] | None:
    accounts = {} if accounts is None else accounts
    author = people.get(entry.status.uid)
    if author is None:
        return None
    shown = _status(request, entry.status, author, entry, accounts)
    if entry.reposted_by is None or entry.repost_id is None:
        return shown
    reposter = people.get(entry.reposted_by.id)
    if reposter is None:
        return None
    posted = entry.repost.posted if entry.repost is not None else entry.status.posted
    url = status_page(request, reposter.login, entry.repost_id)
    return {
        **shown,
        "id": str(entry.repost_id),
        "uri": uris.status_uri(reposter.login, entry.repost_id, base=canonical(request)),
        "url": url,
        "created_at": iso(posted),
        "account": _account(request, reposter, accounts),
        "content": "",
        "mentions": [],
        "tags": [],
        "in_reply_to_id": None,
        "in_reply_to_account_id": None,
        "reblogs_count": 0,
        "favourites_count": 0,
        "replies_count": 0,
        "reblog": shown,
    }


def statuses(request: HttpRequest, entries: Sequence[TimelineEntry]) -> list[dict[str, Any]]:
    """The Status of each entry, in order (entries whose author is gone are left out)."""
    people = _people(entries)
    accounts: dict[int, dict[str, Any]] = {}
    shaped = (_entry(request, entry, people, accounts) for entry in entries)
    return [item for item in shaped if item is not None]


def status(request: HttpRequest, entry: TimelineEntry) -> dict[str, Any] | None:
    found = statuses(request, [entry])
    return found[0] if found else None


def plain_entry(status: Status) -> TimelineEntry:
    """An entry for a status read on its own (a notification's): no repost, the viewer's flags unknown."""
    return TimelineEntry.make(status, None, None, False, False)


def _named(uid: int, login: str, name: str) -> User:
    return User(id=uid, login=login, name=name, followers=0, following=0, posts=0, signup=0.0)


def streamed_status(request: HttpRequest, entry: TimelineEntry) -> dict[str, Any] | None:
    """The Status of an entry built from a stream event alone: a stream must not wait on a read, so its
    accounts carry the names the event has and no counts (a client reads those with ``accounts/:id``)."""
    people = {entry.status.uid: _named(entry.status.uid, entry.status.login, entry.status.name)}
    if entry.reposted_by is not None:
        by = entry.reposted_by
        people[by.id] = _named(by.id, by.login, by.name)
    return _entry(request, entry, people)


def status_edits(request: HttpRequest, status: Status, versions: Sequence[StatusVersion]) -> list[dict[str, Any]]:
    """Mastodon's StatusEdit list of a post: every version, oldest first (as Mastodon orders them), the last
    being the current one. ``versions`` come newest first (``selectors.get_status_history``)."""
    author = selectors.get_users(uids=[status.uid])
    if not author:
        return []
    shaped_account = account(request, author[0])
    return [
        {
            "content": html(request, version.message, version.mention_logins),
            "spoiler_text": "",
            "sensitive": version.sensitive,
            "created_at": iso(version.time),
            "account": shaped_account,
            "poll": None,
            "media_attachments": [media_attachment(request, item) for item in version.media],
            "emojis": [],
        }
        for version in reversed(versions)
    ]

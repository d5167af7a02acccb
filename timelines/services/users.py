"""Creating and discarding users in Redis (book 8.1.1). Credentials live in SQL (``accounts``)."""

from __future__ import annotations

import time

from timelines import exceptions, keys, store, uris
from timelines.services.activity import record_signup
from timelines.services.discovery import index_user
from timelines.services.visits import remember as remember_visit
from timelines.validation import clean_domain, clean_login, clean_name


def require_user(uid: int) -> dict[str, str]:
    """The user hash of ``uid``; raises ``UnknownUser`` when there is none."""
    fields = store.users.get_user(uid)
    if not fields:
        raise exceptions.UnknownUser()
    return fields


def require_users(*uids: int) -> list[dict[str, str]]:
    """Raise ``UnknownUser`` unless every one of ``uids`` exists (one round trip); their hashes, in order."""
    found = store.users.get_users(list(uids))
    for fields in found:
        if not fields:
            raise exceptions.UnknownUser()
    return found


def create_user(*, login: str, name: str, domain: str | None = None) -> int:
    """Create a user and return their uid (book listing 8.1). ``domain`` makes the profile of another server's
    account (``login@domain``; issue 22 fills these in), whose login can never take a local one.

    Logins are unique case-insensitively: the lowercased login (with its domain, ``timelines.uris``) is claimed
    with HSETNX, so of two racing sign-ups exactly one wins and the other gets ``LoginTaken``. The user hash is
    written before the claim and removed again by a loser, so a claimed login always points at a complete user.
    Raises ``InvalidLogin`` (also for a malformed domain) and ``InvalidName``.
    """
    login = clean_login(login)
    name = clean_name(name)
    domain = clean_domain(domain) if domain is not None else None
    lowered = uris.login_claim(login, domain)
    if store.users.get_uid_by_login(lowered) is not None:
        raise exceptions.LoginTaken()
    uid = store.users.next_user_id()
    now = time.time()
    fields: dict[str, str | int | float] = {
        "login": login,
        "id": uid,
        "name": name,
        "followers": 0,
        "following": 0,
        "posts": 0,
        "signup": now,
        # Signing up is a visit (services.idle): the idle sweep counts from here.
        keys.SEEN_FIELD: now,
    }
    if domain:
        fields["domain"] = domain
    store.users.write_user(uid, fields)
    if not store.users.claim_login(lowered, uid):
        store.users.delete_user(uid)
        raise exceptions.LoginTaken()
    record_signup()
    store.idle.mark_seen(uid, now)
    remember_visit(uid, now)
    index_user(uid=uid, login=login, name=name)
    return uid


def discard_user(*, uid: int) -> None:
    """Remove a user created moments ago whose sign-up failed in another store (no posts, no follows yet).

    Releases the login only if it still maps to ``uid``. Idempotent.
    """
    fields = store.users.get_user(uid)
    if fields.get("login"):
        store.users.release_login(uris.login_claim(fields["login"], fields.get("domain")), uid)
    store.users.delete_user(uid)

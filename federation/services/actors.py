"""Other servers' accounts: finding them (WebFinger, actor documents), keeping what delivery needs in SQL
(``RemoteActor``) and their profile in Redis like any account's (``create_user(domain=...)``).

Every remote document comes through ``federation.client`` (SSRF checks, limits, and an ``id`` on the host that
served it). An actor is fetched again when ``REFRESH_SECONDS`` have passed or a signature fails with the key
kept (the actor may have rotated it); each fetch also reads its counts, and new pictures are cached by a job
(``remote_profiles``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import quote, urlsplit

from django.db import IntegrityError, transaction
from django.utils import timezone

from federation import client, identities, queue
from federation.models import RemoteActor
from federation.services import domain_blocks, inbox_index, remote_profiles, remote_statuses
from timelines import exceptions, services, store
from timelines.validation import clean_domain

REFRESH_SECONDS = 24 * 3600
ACTOR_TYPES = frozenset({"Person", "Service", "Application", "Group", "Organization"})
MAX_SUMMARY = 500
MAX_ALIASES = 10


class ActorError(Exception):
    """A remote account that cannot be found, fetched or used."""


def is_remote(uid: int) -> bool:
    """Whether ``uid`` is another server's account (its profile has a ``domain``)."""
    return bool(store.users.get_user(uid).get("domain"))


def domain_of(uri: str) -> str:
    return urlsplit(uri).netloc.lower()


def webfinger(acct: str) -> str:
    """The actor URI of ``login@domain`` by WebFinger on ``domain``. Raises ``ActorError``."""
    acct = acct.strip().removeprefix("acct:").removeprefix("@")
    login, _, domain = acct.partition("@")
    if not login or not domain:
        raise ActorError(f"{acct!r} is not login@domain")
    if domain_blocks.is_suspended(domain):
        raise ActorError(f"{domain} is blocked")
    scheme = "http" if client.insecure() else "https"
    url = f"{scheme}://{domain}/.well-known/webfinger?resource={quote('acct:' + login + '@' + domain)}"
    try:
        answer = client.get(url, accept="application/jrd+json, application/json").json()
    except client.FetchError as error:
        raise ActorError(str(error)) from None
    for link in answer.get("links") or []:
        if (
            isinstance(link, dict)
            and link.get("rel") == "self"
            and str(link.get("type", "")).split(";")[0].strip() in ("application/activity+json", "application/ld+json")
            and isinstance(link.get("href"), str)
        ):
            return link["href"]
    raise ActorError(f"{acct} has no ActivityPub actor")


def _text(html: str) -> str:
    """A remote bio's HTML as the plain text bios are kept in (paragraphs and line breaks kept, entities decoded)."""
    return remote_statuses.plain_text(html or "")[:MAX_SUMMARY]


def fetch_actor(uri: str, *, counts: bool = True) -> RemoteActor:
    """Fetch the actor at ``uri`` and record it (a new account, or an update of one known), with its counts
    unless ``counts`` is False (a key wanted in a request: a job reads them). Raises ``ActorError``; nothing is
    fetched from a suspended domain."""
    try:
        domain = domain_of(uri)
    except ValueError:
        raise ActorError("not a URL") from None
    if domain_blocks.is_suspended(domain):
        raise ActorError(f"{domain} is blocked")
    try:
        document = client.fetch_object(uri)
    except client.FetchError as error:
        raise ActorError(str(error)) from None
    if not counts:
        actor = record_actor(document)
        queue.enqueue_actor_refresh(uri=actor.uri)
        return actor
    return record_fetched(document)


def record_fetched(document: dict[str, Any]) -> RemoteActor:
    """``record_actor`` for a document fetched from its server, with its counts read (at most three more
    fetches, ``remote_profiles.read_counts``). Raises ``ActorError``."""
    actor = record_actor(document)
    remote_profiles.read_counts(actor, document)
    return actor


def record_actor(document: dict[str, Any]) -> RemoteActor:
    """Record a fetched actor ``document``: its ``RemoteActor`` row and its profile in Redis. Raises
    ``ActorError`` when it is unusable (not an actor, no inbox or key, a key owned by someone else, a local
    URI)."""
    uri = document.get("id")
    if document.get("type") not in ACTOR_TYPES or not isinstance(uri, str):
        raise ActorError("not an actor")
    if identities.is_local(uri):
        raise ActorError("a local actor cannot be remote")
    inbox = document.get("inbox")
    key = document.get("publicKey")
    if isinstance(key, list):
        key = next((item for item in key if isinstance(item, dict)), None)
    if not isinstance(inbox, str) or not isinstance(key, dict):
        raise ActorError("the actor has no inbox or no public key")
    key_id, pem, owner = key.get("id"), key.get("publicKeyPem"), key.get("owner", uri)
    if not isinstance(key_id, str) or not isinstance(pem, str) or owner != uri:
        raise ActorError("the actor's key is not its own")
    for field in (inbox, key_id):
        if not client.same_host(field, uri):
            raise ActorError("the actor's inbox or key is on another host")
    endpoints = document.get("endpoints") if isinstance(document.get("endpoints"), dict) else {}
    shared = endpoints.get("sharedInbox") if isinstance(endpoints.get("sharedInbox"), str) else ""
    username = str(document.get("preferredUsername") or "")
    domain = domain_of(uri)
    try:
        domain = clean_domain(domain)
        login = services.clean_login(username)
    except exceptions.InvalidLogin:
        raise ActorError(f"{username}@{domain} is not a login socialsite can hold") from None
    name = str(document.get("name") or "").strip() or login
    try:
        name = services.clean_name(name)
    except exceptions.InvalidName:
        name = login
    fields = {
        "domain": domain,
        "username": login,
        "inbox": inbox,
        "shared_inbox": shared if client.same_host(shared, uri) else "",
        "followers_url": document.get("followers") if isinstance(document.get("followers"), str) else "",
        "outbox": document["outbox"]
        if isinstance(document.get("outbox"), str) and client.same_host(document["outbox"], uri)
        else "",
        "url": document.get("url") if isinstance(document.get("url"), str) else uri,
        "key_id": key_id,
        "public_key_pem": pem,
        "also_known_as": _aliases(document.get("alsoKnownAs")),
        **remote_profiles.picture_fields(document),
    }
    known = RemoteActor.objects.filter(uri=uri).first()
    if known is not None:
        delivered_to = known.delivery_inbox
        RemoteActor.objects.filter(pk=known.pk).update(fetched=timezone.now(), **fields)
        store.users.write_user(known.uid, {"name": name, "bio": _text(str(document.get("summary") or ""))})
        known.refresh_from_db()
        if known.delivery_inbox != delivered_to:
            # Its server moved its inbox: the posts of the people it follows here go to the new one from now on.
            inbox_index.follower_moved(known)
        remote_profiles.queue_pictures(known)
        return known
    uid = _profile_uid(login, domain, name)
    try:
        with transaction.atomic():
            actor = RemoteActor.objects.create(uri=uri, uid=uid, **fields)
    except IntegrityError:
        actor = RemoteActor.objects.filter(uri=uri).first()
        if actor is None:
            raise ActorError("the actor's key is already another actor's") from None
    store.users.write_user(actor.uid, {"bio": _text(str(document.get("summary") or ""))})
    # An account of a blocked server is suspended or limited from the start, as the block's others are.
    domain_blocks.apply_to_actor(actor)
    remote_profiles.queue_pictures(actor)
    return actor


def _aliases(value: Any) -> list[str]:
    """An actor's ``alsoKnownAs``: its other addresses (at most ``MAX_ALIASES``)."""
    value = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [item for item in value if isinstance(item, str) and len(item) <= 2048][:MAX_ALIASES]


def _profile_uid(login: str, domain: str, name: str) -> int:
    """The uid of the Redis profile of ``login@domain``, made now when there is none."""
    try:
        return services.create_user(login=login, name=name, domain=domain)
    except exceptions.LoginTaken:
        uid = store.users.get_uid_by_login(f"{login}@{domain}".lower())
        if uid is None:
            raise ActorError("the account's profile cannot be made") from None
        return uid


def actor_by_uri(uri: str, *, refresh: bool = False, counts: bool = True) -> RemoteActor:
    """The remote actor ``uri``, fetched when unknown, stale, or with ``refresh`` (its counts read too, or by a
    job without ``counts``). Raises ``ActorError``."""
    known = RemoteActor.objects.filter(uri=uri).first()
    stale = known is not None and timezone.now() - known.fetched > timedelta(seconds=REFRESH_SECONDS)
    if known is not None and not refresh and not stale:
        return known
    try:
        return fetch_actor(uri, counts=counts)
    except ActorError:
        if known is not None and not refresh:
            return known
        raise


def actor_by_key_id(key_id: str, *, refresh: bool = False) -> RemoteActor:
    """The remote actor owning key ``key_id`` (``actor#main-key``, or a key document naming its owner)."""
    if not refresh:
        known = RemoteActor.objects.filter(key_id=key_id).first()
        if known is not None:
            return known
    # Only the key is needed, often in a request (a signature to check): the counts are read by a job, as
    # Mastodon fetches a key "only_key".
    actor = actor_by_uri(key_id.split("#", 1)[0], refresh=refresh, counts=False)
    if actor.key_id != key_id:
        raise ActorError("the key is not the actor's")
    return actor


def actor_by_uid(uid: int) -> RemoteActor | None:
    return RemoteActor.objects.filter(uid=uid).first()


def resolve_acct(acct: str) -> RemoteActor:
    """The remote account ``login@domain``: known already, or found by WebFinger and fetched. Raises
    ``ActorError``."""
    login, _, domain = acct.strip().removeprefix("@").partition("@")
    if domain_blocks.is_suspended(domain):
        raise ActorError(f"{domain} is blocked")
    known = RemoteActor.objects.filter(username__iexact=login, domain=domain.lower()).first()
    if known is not None:
        return known
    found = actor_by_uri(webfinger(acct))
    # Newly found: its latest public posts are fetched in a job, so its profile here is not empty.
    queue.enqueue_backfill(uid=found.uid)
    return found


def resolve_account_uid(acct: str) -> int | None:
    """The uid of remote account ``login@domain`` (``resolve_acct``), or None when it cannot be found or used;
    this server's own names are never looked up. (Addresses are ``federation.services.lookup``'s.)"""
    _, _, domain = acct.strip().removeprefix("@").partition("@")
    if domain.lower() == identities.base().split("://", 1)[1]:
        return None
    try:
        return resolve_acct(acct).uid
    except ActorError:
        return None

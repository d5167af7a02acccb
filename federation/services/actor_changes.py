"""A local account's own changes, told to the servers that know it: an ``Update`` of its actor when its profile
changes (name, bio, private or not), a ``Delete`` of its actor when the account is deleted (Mastodon's
``UpdateActorService`` and ``DeleteAccountService`` send the same).

The Update goes to the inboxes of the account's remote followers, the Delete also to those of the remote accounts
it follows (each server's
shared inbox once, through ``outbound.inboxes_of``: suspended and unavailable servers left out). The Update is
built in a job, so a profile edit never waits for it; the Delete's inboxes are read at once, before the erasure
takes the account's follows away, and its deliveries signed with the account's key, which stays in SQL so the
other servers can still check it.
"""

from __future__ import annotations

import time
from typing import Any

from federation import contexts, documents, identities, keypairs, queue, store
from federation.services import outbound
from timelines import exceptions, selectors
from timelines import keys as timelines_keys
from timelines import store as timelines_store

MAX_FOLLOWED = 10_000


def _audience(uid: int) -> list[int]:
    """The remote followers of ``uid`` and the remote accounts it follows."""
    followers = outbound.remote_audience(uid, None)
    followed = timelines_store.privacy.members(timelines_keys.following(uid), count=MAX_FOLLOWED)
    # Read from Redis (a remote profile has a domain): an account that knows no other server costs no SQL.
    profiles = timelines_store.users.get_users(followed)
    remote_followed = [other for other, fields in zip(followed, profiles, strict=True) if fields.get("domain")]
    return list(dict.fromkeys([*followers, *remote_followed]))


def profile_changed(*, uid: int) -> None:
    """Queue the ``Update`` of local ``uid``'s actor (hook ``profile_changed``), when it has remote followers."""
    if store.has_remote_followers(uid):
        queue.enqueue_actor_update(uid=uid)


def send_update(*, uid: int) -> int:
    """Deliver the ``Update`` of local ``uid``'s actor, as it is now; returns the number of inboxes."""
    try:
        user = selectors.get_user(uid=uid)
    except exceptions.UnknownUser:  # gone meanwhile: its Delete follows
        return 0
    if user.domain or user.suspended:
        return 0
    person = documents.person(user, public_key_pem=keypairs.public_key_pem(uid))
    activity = {
        "@context": contexts.ACTOR_CONTEXT,
        "id": f"{person['id']}#updates/{time.time_ns()}",
        "type": "Update",
        "actor": person["id"],
        "to": [contexts.PUBLIC],
        "object": {key: value for key, value in person.items() if key != "@context"},
    }
    inboxes = outbound.follower_inboxes(uid, None)
    for inbox in inboxes:
        queue.enqueue_delivery(inbox=inbox, activity=activity, signer=uid)
    return len(inboxes)


def account_deleted(*, uid: int) -> None:
    """Send the ``Delete`` of local ``uid``'s actor (hook ``account_deleted``, called before the erasure)."""
    fields = timelines_store.users.get_user(uid)
    if not fields or fields.get("domain"):
        return
    audience = _audience(uid)
    if not audience:
        return
    keypairs.key_pair(uid)  # kept after the account: the Delete is signed with the key the others know
    actor = identities.actor(fields["login"])
    activity: dict[str, Any] = {
        "@context": contexts.ACTIVITYSTREAMS,
        "id": f"{actor}#delete",
        "type": "Delete",
        "actor": actor,
        "to": [contexts.PUBLIC],
        "object": actor,
    }
    for inbox in outbound.inboxes_of(audience):
        queue.enqueue_delivery(inbox=inbox, activity=activity, signer=uid)

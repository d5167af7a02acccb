"""Outgoing activities about people rather than posts: a local account's ``Block`` of another server's account
(and its ``Undo``), and a report forwarded to the reported account's server (``Flag``, Mastodon's "Forward to the
remote server"). Both go out through the delivery jobs (``federation.queue``: signed, retried with back-off,
dropped for a suspended domain).

A Block tells the other server so it can hide the blocker from the blocked account there too (Mastodon does).
A forwarded report is signed by the instance actor, never by the reporter: the other server learns what was
reported and the comment, not who reported it.
"""

from __future__ import annotations

import time
from typing import Any

from federation import contexts, identities, queue
from federation.services import actors
from federation.services.outbound import local_login
from timelines import store as timelines_store

INSTANCE_SIGNER = 0  # the key pair of the instance actor (federation.models.KeyPair)


def remote_blocked(*, uid: int, other_uid: int, blocked: bool) -> None:
    """Send local ``uid``'s Block of remote ``other_uid``, or with ``blocked`` False its Undo."""
    login, target = local_login(uid), actors.actor_by_uid(other_uid)
    if login is None or target is None:
        return
    actor = identities.actor(login)
    block = {
        "@context": contexts.ACTIVITYSTREAMS,
        "id": f"{actor}#blocks/{other_uid}",
        "type": "Block",
        "actor": actor,
        "object": target.uri,
    }
    activity: dict[str, Any] = block
    if not blocked:
        inner = {key: value for key, value in block.items() if key != "@context"}
        activity = {
            "@context": contexts.ACTIVITYSTREAMS,
            "id": f"{actor}#unblocks/{other_uid}/{time.time_ns()}",
            "type": "Undo",
            "actor": actor,
            "object": inner,
        }
    else:
        # Each Block its own id: a block lifted and made again is a new activity the other server must hear.
        block["id"] = f"{block['id']}/{time.time_ns()}"
    queue.enqueue_delivery(inbox=target.inbox, activity=activity, signer=uid)


def flag_document(*, identifier: str, actor_uri: str, status_uris: list[str], comment: str) -> dict[str, Any]:
    """A ``Flag`` as Mastodon sends one: ``object`` the account's URI then its posts', ``content`` the comment."""
    return {
        "@context": contexts.ACTIVITYSTREAMS,
        "id": identifier,
        "type": "Flag",
        "actor": identities.instance_actor(),
        "content": comment,
        "object": [actor_uri, *status_uris],
    }


def forward_report(*, uid: int, status_ids: list[int], comment: str) -> bool:
    """Send a copy of a report about remote account ``uid`` and its posts ``status_ids`` to its server, signed
    by the instance actor; True when it is queued (False: ``uid`` is not another server's account). Posts
    that are not that account's, or have no URI of its server, are left out."""
    target = actors.actor_by_uid(uid)
    if target is None:
        return False
    found = timelines_store.statuses.get_statuses([int(status_id) for status_id in status_ids])
    status_uris = [str(f["uri"]) for f in found if f and f.get("uri") and str(f.get("uid")) == str(uid)]
    identifier = f"{identities.instance_actor()}#flags/{uid}/{time.time_ns()}"
    activity = flag_document(identifier=identifier, actor_uri=target.uri, status_uris=status_uris, comment=comment)
    queue.enqueue_delivery(inbox=target.delivery_inbox, activity=activity, signer=INSTANCE_SIGNER)
    return True

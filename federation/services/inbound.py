"""Incoming activities, processed in RQ jobs after the inbox checked their signature (``federation.views``).

The inbox has already made sure the activity's ``actor`` is the signer. Here each activity acts only on what its
actor owns: a Create's Note must be attributed to it, a Delete may remove only its own posts, an Undo only its
own Follow, an Accept only a follow request sent to it. Every activity is processed once (``ap:seen``), and each
handler is idempotent besides, so a redelivered or retried activity changes nothing.

Handled: Follow (accepted at once, or a request for a private account; a block answers Reject), Undo of a
Follow, a Like, an Announce or a Block, Accept and Reject of our Follows, Create of a Note, Delete of a Note, Like and
Announce of a post stored here (through the site's own like and repost services, so with their visibility rules
and notifications), Update of the actor itself or of one of its posts (an edit); Block, Flag, Move and the Delete of
the actor itself (``federation.services.inbound_moderation``). Other types the inbox accepts (Add, Remove...) are
acknowledged and ignored for now.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from federation import client, identities, store
from federation.models import RemoteActor
from federation.services import (
    actors,
    domain_blocks,
    inbound_moderation,
    outbound,
    remote_profiles,
    remote_statuses,
)
from timelines import exceptions, keys, services
from timelines import store as timelines_store
from timelines.services.follows import make_follow

logger = logging.getLogger(__name__)

HANDLED = frozenset(
    {"Follow", "Undo", "Accept", "Reject", "Create", "Delete", "Like", "Announce", "Update", "Block", "Flag", "Move"}
)
# Accepted by the inbox but not acted on yet.
IGNORED = frozenset({"Add", "Remove", "EmojiReact"})
KNOWN = HANDLED | IGNORED


def _id(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("id"), str):
        return value["id"]
    return None


def _local_uid(uri: str | None) -> tuple[int, str] | None:
    """(uid, login) of the local account whose actor URI is ``uri``."""
    if not uri or not identities.is_local(uri) or "/@" not in uri:
        return None
    login = uri.rstrip("/").rsplit("/@", 1)[-1]
    if "/" in login:
        return None
    uid = timelines_store.users.get_uid_by_login(login.lower())
    if uid is None:
        return None
    fields = timelines_store.users.get_user(uid)
    if not fields or fields.get("domain") or identities.actor(fields["login"]) != identities.actor(login):
        return None
    return uid, fields["login"]


def process(*, activity: dict[str, Any], actor_uri: str) -> str:
    """Process one incoming ``activity`` signed by ``actor_uri``; returns what was done, in a word or two."""
    identifier = _id(activity) or ""
    if identifier and not store.claim_activity(identifier):
        return "duplicate"
    if domain_blocks.is_suspended(actors.domain_of(actor_uri)):
        return "blocked"  # queued before its server was suspended: nothing of it is taken
    try:
        actor = actors.actor_by_uri(actor_uri)
        store.note_success(actor.domain)  # heard from: available again, if it was not
        return _dispatch(activity, actor)
    except Exception:
        if identifier:
            store.forget_activity(identifier)  # the retry must process it
        raise


def _dispatch(activity: dict[str, Any], actor: RemoteActor) -> str:
    kind = activity.get("type")
    if kind == "Follow":
        return _follow(activity, actor)
    if kind == "Undo":
        return _undo(activity, actor)
    if kind in ("Accept", "Reject"):
        return _answer(activity, actor, accepted=kind == "Accept")
    if kind == "Create":
        return _create(activity, actor)
    if kind == "Delete":
        return _delete(activity, actor)
    if kind in ("Like", "Announce"):
        return _react(activity, actor, like=kind == "Like", undo=False)
    if kind == "Update":
        return _update(activity, actor)
    if kind == "Block":
        return inbound_moderation.block(target=_id(activity.get("object")), actor=actor, undo=False)
    if kind == "Flag":
        return inbound_moderation.flag(activity=activity, actor=actor)
    if kind == "Move":
        return inbound_moderation.move(activity=activity, actor=actor)
    return "ignored"


def _follow(activity: dict[str, Any], actor: RemoteActor) -> str:
    local = _local_uid(_id(activity.get("object")))
    if local is None:
        return "unknown account"
    uid, _ = local
    try:
        changed = services.follow_user(uid=actor.uid, other_uid=uid)
    except exceptions.CannotFollow:
        # A block stands between them: say no, as Mastodon does.
        outbound.send_reject(uid=uid, follower=actor, follow_activity=activity)
        return "rejected"
    if changed == services.REQUESTED:
        # Answered when the account's owner approves or rejects it (outbound.follow_request_answered).
        store.keep_follow_request(uid, actor.uid, activity)
        return "requested"
    store.add_remote_follower(uid, actor.uid, time.time(), inbox=actor.delivery_inbox)
    outbound.send_accept(uid=uid, follower=actor, follow_activity=activity)
    return "followed"


def _undo(activity: dict[str, Any], actor: RemoteActor) -> str:
    inner = activity.get("object")
    if not isinstance(inner, dict) or _id(inner.get("actor")) != actor.uri:
        return "ignored"
    if inner.get("type") in ("Like", "Announce"):
        return _react(inner, actor, like=inner["type"] == "Like", undo=True)
    if inner.get("type") == "Block":
        return inbound_moderation.block(target=_id(inner.get("object")), actor=actor, undo=True)
    if inner.get("type") != "Follow":
        return "ignored"
    local = _local_uid(_id(inner.get("object")))
    if local is None:
        return "unknown account"
    uid, _ = local
    services.withdraw_follow_request(uid=actor.uid, other_uid=uid)
    services.unfollow_user(uid=actor.uid, other_uid=uid)
    store.remove_remote_follower(uid, actor.uid)
    return "unfollowed"


def _answer(activity: dict[str, Any], actor: RemoteActor, *, accepted: bool) -> str:
    """An Accept or Reject of a local account's Follow of ``actor``."""
    inner = activity.get("object")
    follower_uri = _id(inner.get("actor")) if isinstance(inner, dict) else None
    if isinstance(inner, dict) and _id(inner.get("object")) not in (None, actor.uri):
        return "ignored"
    if follower_uri is None:
        # Only the Follow's id: it names its local actor (federation.services.outbound builds it so).
        follower_uri = (_id(inner) or "").split("#", 1)[0]
    local = _local_uid(follower_uri)
    if local is None:
        return "unknown account"
    uid, _ = local
    pending = timelines_store.privacy.is_member(keys.follow_requests(actor.uid), uid)
    if not pending:
        return "no request"
    if accepted:
        make_follow(uid=uid, other_uid=actor.uid, notify_followee=False)
    timelines_store.privacy.remove_pair(keys.follow_requests(actor.uid), keys.follow_requested(uid), uid, actor.uid)
    return "accepted" if accepted else "rejected"


def _create(activity: dict[str, Any], actor: RemoteActor) -> str:
    note = activity.get("object")
    if not isinstance(note, dict) or note.get("type") != "Note" or not isinstance(note.get("id"), str):
        return "ignored"
    if _id(note.get("attributedTo")) != actor.uri or not client.same_host(note["id"], actor.uri):
        return "not its own"
    status_id = remote_statuses.store_note(note=note, author=actor)
    return "stored" if status_id is not None else "not stored"


def _delete(activity: dict[str, Any], actor: RemoteActor) -> str:
    target = _id(activity.get("object"))
    if target is None:
        return "ignored"
    if target == actor.uri:
        return inbound_moderation.delete_actor(actor=actor)
    return "deleted" if remote_statuses.delete_note(uri=target, author=actor) else "unknown post"


def _react(activity: dict[str, Any], actor: RemoteActor, *, like: bool, undo: bool) -> str:
    """A Like or an Announce (or its Undo) of a post stored here, as the site's like and repost services do it:
    a post the remote account may not see, or may not repost, is refused as it would be for anyone."""
    target = _id(activity.get("object"))
    status_id = remote_statuses.local_status_id(target) if target else None
    if status_id is None:
        return "unknown post"
    try:
        if like:
            changed = (services.unlike_status if undo else services.like_status)(uid=actor.uid, status_id=status_id)
        else:
            changed = (services.undo_repost if undo else services.repost_status)(uid=actor.uid, status_id=status_id)
    except (exceptions.StatusNotFound, exceptions.UnknownUser, exceptions.CannotRepost):
        return "refused"
    verb = ("unliked" if undo else "liked") if like else ("unreposted" if undo else "reposted")
    return verb if changed else "unchanged"


def _update(activity: dict[str, Any], actor: RemoteActor) -> str:
    """An Update of the actor itself (name, bio, keys, inboxes), or of one of its posts stored here (an edit,
    through the site's edit service: a new version, under the same rules as a local edit)."""
    inner = activity.get("object")
    if isinstance(inner, dict) and inner.get("type") == "Note":
        return _edit(inner, actor)
    if not isinstance(inner, dict) or _id(inner) != actor.uri:
        return "ignored"
    try:
        updated = actors.record_actor(inner)
    except actors.ActorError:
        return "refused"
    remote_profiles.read_counts(updated, inner)
    return "updated"


def _edit(note: dict[str, Any], actor: RemoteActor) -> str:
    uri = _id(note)
    if uri is None or _id(note.get("attributedTo")) != actor.uri:
        return "ignored"
    status_id = store.object_status(uri)
    if status_id is None:
        return "unknown post"
    message = remote_statuses.plain_text(str(note.get("content") or ""))
    try:
        # Stored under the federation's limit, not the 280 of a post typed here: so is its edit.
        changed = services.edit_status(
            uid=actor.uid, status_id=status_id, message=message, max_length=remote_statuses.MAX_MESSAGE
        )
    except (exceptions.InvalidMessage, exceptions.TooManyVersions, exceptions.StatusNotFound, exceptions.NotOwner):
        return "refused"
    return "edited" if changed else "unchanged"

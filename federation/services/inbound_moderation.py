"""Incoming activities about people rather than posts: ``Block`` (and its ``Undo``), ``Flag`` (a report), ``Move``
and the ``Delete`` of an actor. Called by ``federation.services.inbound`` once the activity's signature and actor are
checked; each acts only on what its actor owns and is idempotent.

- ``Block``: the remote account blocks a local one, through the site's block service, so the policy hides
  each from the other everywhere and the follows between them end, as a local block does. Its ``Undo`` lifts it.
- ``Flag``: another server's report about local accounts (Mastodon forwards reports so): it lands in the
  moderators' queue (``accounts.reports``) as a report by the server itself, a SQL account named by the
  domain that cannot log in, one per server, with the reported posts that are the account's and its comment.
- ``Move``: the account moved to another one that names it as an alias: the people here who followed it follow
  the new one (a request its server answers) and no longer the old.
- ``Delete`` of the actor itself: the remote account is removed with everything of it here, as an erased
  account (``timelines.services.erasure``: suspended at once, its posts, follows and likes removed in passes),
  and its address-book row goes, so a later activity signed by it is refused.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction

from accounts import limits as account_limits
from accounts import reports
from accounts.models import Report, User
from federation import identities
from federation.models import RemoteActor
from federation.services import actors, remote_statuses
from timelines import exceptions, services
from timelines import keys as timelines_keys
from timelines import store as timelines_store
from timelines.services import erasure

logger = logging.getLogger(__name__)

MAX_FLAGGED_OBJECTS = 20


def _local_account(uri: str | None) -> int | None:
    """The uid of the local account whose actor URI is ``uri``."""
    if not uri or not identities.is_local(uri) or "/@" not in uri:
        return None
    login = uri.rstrip("/").rsplit("/@", 1)[-1]
    if "/" in login:
        return None
    uid = timelines_store.users.get_uid_by_login(login.lower())
    if uid is None:
        return None
    fields = timelines_store.users.get_user(uid)
    return uid if fields and not fields.get("domain") else None


def block(*, target: str | None, actor: RemoteActor, undo: bool) -> str:
    """``actor`` blocks (or with ``undo`` stops blocking) the local account at ``target``."""
    uid = _local_account(target)
    if uid is None:
        return "unknown account"
    try:
        if undo:
            changed = services.unblock_user(uid=actor.uid, other_uid=uid)
        else:
            changed = services.block_user(uid=actor.uid, other_uid=uid)
    except (exceptions.UnknownUser, exceptions.CannotTargetSelf):
        return "refused"
    if not changed:
        return "unchanged"
    return "unblocked" if undo else "blocked"


def _server_reporter(domain: str) -> User:
    """The SQL account that stands for another server in reports: named by its domain (a login here never has
    a dot), unable to log in, made on its first report."""
    found = User.objects.filter(username=domain).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return User.objects.create(username=domain, password=make_password(None), is_active=False)
    except IntegrityError:
        return User.objects.get(username=domain)


def flag(*, activity: dict[str, Any], actor: RemoteActor) -> str:
    """Another server's report (``Flag``) of local accounts and their posts: one report per account named, in
    the moderators' queue, by that server."""
    objects = activity.get("object")
    objects = objects if isinstance(objects, list) else [objects]
    uris = [item if isinstance(item, str) else item.get("id") for item in objects[:MAX_FLAGGED_OBJECTS]]
    uris = [uri for uri in uris if isinstance(uri, str)]
    accounts = {uid for uid in (_local_account(uri) for uri in uris) if uid is not None}
    statuses = [remote_statuses.local_status_id(uri) for uri in uris if identities.is_local(uri)]
    content = activity.get("content")
    comment = content.strip() if isinstance(content, str) else ""
    comment = f"Forwarded by {actor.domain}: {comment}" if comment else f"Forwarded by {actor.domain}"
    comment = comment[: account_limits.MAX_REPORT_COMMENT_LENGTH]
    reported_users = list(User.objects.filter(uid__in=accounts)) if accounts else []
    if not reported_users:
        return "unknown account"
    reporter = _server_reporter(actor.domain)
    for reported in reported_users:
        reports.report(
            reporter=reporter,
            reported=reported,
            reason=Report.Reason.OTHER,
            comment=comment,
            status_ids=[status_id for status_id in statuses if status_id is not None],
        )
    return "reported"


def delete_actor(*, actor: RemoteActor) -> str:
    """``actor`` deleted itself on its server: remove the account here, with its posts and relations."""
    uid = actor.uid
    RemoteActor.objects.filter(pk=actor.pk).delete()
    try:
        erasure.delete_account(uid=uid)
    except exceptions.UnknownUser:
        return "unknown account"
    return "account deleted"


MAX_MOVED_FOLLOWERS = 1000


def move(*, activity: dict[str, Any], actor: RemoteActor) -> str:
    """``actor`` moved to another account (``Move``, Mastodon's account migration): the people here who follow it
    follow the new account instead (a request, as any follow of another server's account, answered by its server)
    and stop following the old one. The new account must name the old one among its ``alsoKnownAs`` (fetched
    again when the copy here does not). At most ``MAX_MOVED_FOLLOWERS`` followers are moved."""
    origin = activity.get("object")
    origin = origin.get("id") if isinstance(origin, dict) else origin
    target = activity.get("target")
    target = target.get("id") if isinstance(target, dict) else target
    if origin != actor.uri or not isinstance(target, str) or target == actor.uri:
        return "ignored"
    try:
        new = actors.actor_by_uri(target)
        if actor.uri not in new.also_known_as:
            new = actors.actor_by_uri(target, refresh=True)
    except actors.ActorError:
        return "unknown target"
    if actor.uri not in new.also_known_as:
        return "not an alias"
    followers = timelines_store.privacy.members(timelines_keys.followers(actor.uid), count=MAX_MOVED_FOLLOWERS)
    remote = set(RemoteActor.objects.filter(uid__in=followers).values_list("uid", flat=True))
    moved = 0
    for follower in followers:
        if follower in remote:
            continue
        try:
            services.follow_user(uid=follower, other_uid=new.uid)
        except (exceptions.CannotFollow, exceptions.UnknownUser, exceptions.CannotTargetSelf):
            continue  # a block, or someone gone: they stay as they were
        services.unfollow_user(uid=follower, other_uid=actor.uid)
        moved += 1
    return f"moved {moved}"

"""The remote audience of the delivery pipeline, and the activities a local person sends to other servers.

``status_delivered`` is called by the delivery pipeline (``timelines.hooks``) after a status reached its local
audiences; when its author has remote followers it queues one fan-out job, which asks the same per-recipient
policy as local delivery (``timelines.policy``) which of them may receive it, and queues one signed POST per
inbox, shared inboxes counted once. Public, unlisted and followers-only posts go to the followers whom the
policy admits, and a reply or a repost of another server's post also to that post's author; a repost goes out as
``Announce`` (its undoing as ``Undo``). The people of other servers a post mentions (``@login@domain``) get it too,
when the policy lets them see it; a direct post goes to them alone. A mention of an account not known here yet is
looked up by WebFinger in the fan-out job (never in the request), then stored with the post's mentions, tagged in
the Note and delivered like the others. A deletion goes to every inbox of the author's current remote followers
(and of the people it mentioned).

Follows of remote accounts are requests until the remote server accepts (``timelines.services.follows``): the
Follow is sent here, the Accept completes it in ``federation.services.inbound``.
"""

from __future__ import annotations

import html
import logging
import time
from typing import Any

from federation import client, contexts, documents, identities, keypairs, keys, queue, store
from federation.models import RemoteActor
from federation.services import actors, domain_blocks, inbox_index, mentions
from media.models import Attachment
from timelines import keys as timelines_keys
from timelines import policy
from timelines import store as timelines_store
from timelines import visibility as visibilities
from timelines.records import Status
from timelines.templatetags.timeline_format import profile_url

logger = logging.getLogger(__name__)

FEDERATED = frozenset({visibilities.PUBLIC, visibilities.UNLISTED, visibilities.PRIVATE})


class DeliveryFailed(Exception):
    """An inbox that could not take an activity now (its server failed or asked to wait); RQ retries."""


def local_login(uid: int) -> str | None:
    fields = timelines_store.users.get_user(uid)
    if not fields or fields.get("domain"):
        return None
    return fields["login"]


# --- hooks (registered by federation.hooks) ---------------------------------------------------------------


def remote_audience_key(uid: int) -> str:
    """The key of ``uid``'s remote followers, whose size a new post reads with its writes (``timelines.hooks``)."""
    return keys.remote_followers(uid)


def _federates(fields: Any, remote_followers: bool | None = None) -> bool:
    """Whether a local status concerns anyone on another server: its author's remote followers (not for a
    direct post; ``remote_followers`` when the caller read it), the remote author it answers or reposts, or the
    remote people it mentions."""
    level = visibilities.of_status(fields)
    if level == visibilities.DIRECT and not fields.get("repost_of"):
        return bool(mentions.remote_mentions(fields) or mentions.unresolved(fields))
    if level not in FEDERATED:
        return False
    if remote_followers is None:
        remote_followers = store.has_remote_followers(int(fields["uid"]))
    return (
        remote_followers
        or _remote_counterpart(fields) is not None
        or bool(mentions.remote_mentions(fields) or mentions.unresolved(fields))
    )


def status_delivered(status: Any, *, remote_followers: bool | None = None) -> None:
    """Queue the remote fan-out of a new local status or repost, when its author has remote followers (read here
    unless ``remote_followers`` tells), it answers (or reposts) another server's post, or it mentions people of
    other servers."""
    if status.get("uri"):
        return  # another server's post, stored here (with its URI): its own server delivers it
    if _federates(status, remote_followers):
        queue.enqueue_fanout(status_id=int(status["id"]), uid=int(status["uid"]))


def status_deleted(fields: Any) -> None:
    """Queue the remote fan-out of a deleted local status's ``Delete`` (an undone repost's ``Undo``)."""
    if fields.get("uri"):
        return
    if _federates(fields):
        queue.enqueue_fanout(status_id=int(fields["id"]), uid=int(fields["uid"]), deleted=dict(fields))


def status_edited(fields: Any) -> None:
    """Queue the remote fan-out of an edited local status's ``Update``."""
    if fields.get("repost_of") or fields.get("uri"):
        return
    if _federates(fields):
        queue.enqueue_fanout(status_id=int(fields["id"]), uid=int(fields["uid"]), version=int(fields.get("edits") or 1))


def status_liked(*, uid: int, fields: Any, liked: bool) -> None:
    """Send local ``uid``'s Like (or its Undo) of another server's post to that post's author."""
    if not fields or not fields.get("uri"):
        return  # a local post: nothing to tell anyone
    login, author = local_login(uid), actors.actor_by_uid(int(fields["uid"]))
    if login is None or author is None:
        return
    actor = identities.actor(login)
    like = {
        "@context": contexts.ACTIVITYSTREAMS,
        "id": f"{actor}#likes/{fields['id']}/{time.time_ns()}",
        "type": "Like",
        "actor": actor,
        "object": fields["uri"],
    }
    if not liked:
        like = documents.undo(identifier=f"{actor}#unlikes/{fields['id']}/{time.time_ns()}", actor=actor, activity=like)
    queue.enqueue_delivery(inbox=author.inbox, activity=like, signer=uid)


def remote_follow_requested(*, uid: int, other_uid: int) -> None:
    """Send local ``uid``'s Follow to remote ``other_uid``."""
    login, target = local_login(uid), actors.actor_by_uid(other_uid)
    if login is None or target is None:
        return
    actor = identities.actor(login)
    activity = documents.follow(
        identifier=f"{actor}#follows/{other_uid}/{time.time_ns()}", actor=actor, target=target.uri
    )
    queue.enqueue_delivery(inbox=target.inbox, activity=activity, signer=uid)


def remote_unfollowed(*, uid: int, other_uid: int) -> None:
    """Send local ``uid``'s Undo of its Follow of remote ``other_uid``."""
    login, target = local_login(uid), actors.actor_by_uid(other_uid)
    if login is None or target is None or domain_blocks.is_suspended(target.domain):
        return  # nothing goes to a suspended server (a severance unfollows all its accounts at once)
    actor = identities.actor(login)
    follow = documents.follow(identifier=f"{actor}#follows/{other_uid}", actor=actor, target=target.uri)
    activity = documents.undo(
        identifier=f"{actor}#unfollows/{other_uid}/{time.time_ns()}", actor=actor, activity=follow
    )
    queue.enqueue_delivery(inbox=target.inbox, activity=activity, signer=uid)


def follower_removed(*, uid: int, follower: int) -> None:
    """``follower`` stopped following local ``uid`` (hook ``follower_removed``): when it is a remote follower, it
    leaves ``ap:followers:{uid}`` and its inbox's count (one script; nothing for a local follower)."""
    store.remove_remote_follower(uid, follower)


def send_accept(*, uid: int, follower: RemoteActor, follow_activity: dict[str, Any]) -> None:
    """Send local ``uid``'s Accept of ``follower``'s Follow."""
    _answer_follow(uid=uid, follower=follower, follow_activity=follow_activity, verb="Accept")


def send_reject(*, uid: int, follower: RemoteActor, follow_activity: dict[str, Any]) -> None:
    """Send local ``uid``'s Reject of ``follower``'s Follow."""
    _answer_follow(uid=uid, follower=follower, follow_activity=follow_activity, verb="Reject")


def _answer_follow(*, uid: int, follower: RemoteActor, follow_activity: dict[str, Any], verb: str) -> None:
    login = local_login(uid)
    if login is None:
        return
    actor = identities.actor(login)
    inner = {key: value for key, value in follow_activity.items() if key != "@context"}
    activity = documents.accept(
        identifier=f"{actor}#{verb.lower()}s/follows/{follower.uid}/{time.time_ns()}",
        actor=actor,
        follow_activity=inner,
    )
    activity["type"] = verb
    queue.enqueue_delivery(inbox=follower.inbox, activity=activity, signer=uid)


def follow_request_answered(*, uid: int, requester_uid: int, approved: bool) -> None:
    """Tell a remote requester's server that local ``uid`` approved (Accept) or rejected (Reject) its Follow."""
    if not actors.is_remote(requester_uid):
        return  # a local request: nothing to tell, and no SQL read for it
    requester = actors.actor_by_uid(requester_uid)
    if requester is None:
        return
    follow = store.pop_follow_request(uid, requester_uid)
    login = local_login(uid)
    if follow is None and login is not None:
        # Asked before its Follow was kept: quote one naming the same two actors.
        follow = documents.follow(
            identifier=f"{requester.uri}#follows", actor=requester.uri, target=identities.actor(login)
        )
    if follow is None:
        return
    if approved:
        store.add_remote_follower(uid, requester_uid, time.time(), inbox=requester.delivery_inbox)
        send_accept(uid=uid, follower=requester, follow_activity=follow)
    else:
        send_reject(uid=uid, follower=requester, follow_activity=follow)


# --- jobs --------------------------------------------------------------------------------------------------


def remote_audience(uid: int, item: policy.Item | None) -> list[int]:
    """The remote followers of ``uid`` who follow them still and, for ``item``, whom the policy admits."""
    candidates = store.remote_followers(uid)
    present = store.scores(timelines_keys.followers(uid), candidates)
    following = [member for member, score in zip(candidates, present, strict=True) if score is not None]
    if item is None:
        return following
    return policy.allowed_recipients(item=item, recipients=following, followers_of=uid)


def follower_inboxes(uid: int, item: policy.Item | None) -> list[str]:
    """The inboxes of local ``uid``'s remote followers, read from their index (``ap:inboxes:{uid}``: one small
    hash per post, however many followers), when the policy admits them to ``item`` (None: always), leaving out
    unavailable servers (``available``). The policy's answer for a current follower depends only on the author
    and the item (a block ends follows both ways, and a mute is a local person's), so it is asked once, about
    one follower, and holds for every one of them."""
    counts = store.remote_inboxes(uid)
    if not counts and store.has_remote_followers(uid):
        counts = inbox_index.rebuild(uid)  # followers recorded before the index existed
    if not counts:
        return []
    if item is not None:
        sample = store.any_remote_follower(uid)
        if sample is None or not policy.allowed_recipients(item=item, recipients=[sample], followers_of=uid):
            return []
    return available(list(counts))


def inboxes_of(uids: list[int]) -> list[str]:
    """The inboxes to reach ``uids``, each server's shared inbox once (``available`` ones)."""
    found = RemoteActor.objects.filter(uid__in=uids).only("inbox", "shared_inbox", "domain")
    return available([actor.delivery_inbox for actor in found])


def available(inboxes: list[str]) -> list[str]:
    """``inboxes`` once each, sorted, leaving out suspended servers (a domain block) and servers that have
    failed every delivery for ``UNAVAILABLE_AFTER_SECONDS`` (until they are heard from again)."""
    domains_of = {}
    for inbox in inboxes:
        try:
            domains_of[inbox] = actors.domain_of(inbox)
        except ValueError:
            continue
    domains = sorted(set(domains_of.values()))
    since = dict(zip(domains, store.failing_since(domains), strict=True))
    cutoff = time.time() - keys.UNAVAILABLE_AFTER_SECONDS
    blocked = domain_blocks.suspended_domains(domains)
    usable = {
        domain for domain, started in since.items() if (started is None or started > cutoff) and domain not in blocked
    }
    return sorted(inbox for inbox, domain in domains_of.items() if domain in usable)


def note_of(status: Status) -> dict[str, Any]:
    """The Note of a local status, with its mentions and the post it answers."""
    mentioned: list[tuple[str, str]] = []
    for uid, login in zip(status.mentions, status.mention_logins, strict=True):
        remote = actors.actor_by_uid(uid)
        mentioned.append(
            (remote.uri, f"{remote.username}@{remote.domain}") if remote else (identities.actor(login), login)
        )
    in_reply_to = None
    if status.in_reply_to:
        parent = timelines_store.statuses.get_status(status.in_reply_to)
        if parent:
            in_reply_to = parent.get("uri") or identities.status(parent["login"], int(parent["id"]))
        answered = actors.actor_by_uid(int(parent["uid"])) if parent and parent.get("uri") else None
        if answered is not None and all(uri != answered.uri for uri, _ in mentioned):
            # Another server's author is addressed and tagged, as Mastodon does for the author a reply answers.
            mentioned.append((answered.uri, f"{answered.username}@{answered.domain}"))
    media_types = (
        dict(Attachment.objects.filter(id__in=[item.id for item in status.media]).values_list("id", "content_type"))
        if status.media
        else {}
    )
    document = documents.note(status, mentioned=mentioned, in_reply_to=in_reply_to, media_types=media_types)
    for uid in status.mentions:
        remote = actors.actor_by_uid(uid)
        if remote is not None:
            # The text links a remote mention to its profile here; other servers expect its own page.
            ours = html.escape(identities.base() + profile_url(f"{remote.username}@{remote.domain}".lower()))
            document["content"] = document["content"].replace(f'href="{ours}"', f'href="{html.escape(remote.url)}"')
    return document


def _remote_counterpart(fields: Any) -> int | None:
    """The uid of the remote author a status answers or reposts, when it is another server's post."""
    other = fields.get("repost_of_uid") if fields.get("repost_of") else fields.get("in_reply_to_uid")
    return int(other) if other and actors.is_remote(int(other)) else None


def _announce(*, login: str, repost_id: int, fields: Any) -> dict[str, Any] | None:
    """The ``Announce`` of a local repost, addressed as the repost is and to the original's author; None when
    the original is gone."""
    original = timelines_store.statuses.get_status(int(fields["repost_of"]))
    if not original:
        return None
    remote = actors.actor_by_uid(int(original["uid"])) if original.get("uri") else None
    author = remote.uri if remote else identities.actor(original["login"])
    to, cc = documents.addressing(
        level=visibilities.of_status(fields), followers=identities.followers(login), mentioned=[author]
    )
    return {
        "@context": contexts.ACTIVITYSTREAMS,
        "id": f"{identities.status(login, repost_id)}/activity",
        "type": "Announce",
        "actor": identities.actor(login),
        "published": documents.iso(float(fields["posted"])),
        "to": to,
        "cc": cc,
        "object": original.get("uri") or identities.status(original["login"], int(original["id"])),
    }


def fan_out(*, status_id: int, uid: int, deleted: dict[str, str] | None = None, version: int = 0) -> int:
    """Queue one delivery per remote inbox of local ``uid``'s status (its Create, with ``deleted`` its Delete,
    with ``version`` its Update). Returns the number of inboxes. Idempotent: each delivery's job id is unique
    per activity and inbox."""
    login = local_login(uid)
    if login is None:
        return 0
    actor = identities.actor(login)
    if deleted is not None and deleted.get("repost_of"):
        announce = _announce(login=login, repost_id=status_id, fields=deleted) or {
            "id": f"{identities.status(login, status_id)}/activity",
            "type": "Announce",
            "actor": actor,
        }
        activity = documents.undo(identifier=f"{announce['id']}#undo", actor=actor, activity=announce)
        followers = follower_inboxes(uid, None)
        audience: list[int] = []
    elif deleted is not None:
        level = visibilities.of_status(deleted)
        mentioned = mentions.remote_mentions(deleted)
        uris = [remote.uri for remote in RemoteActor.objects.filter(uid__in=mentioned)]
        to, cc = documents.addressing(level=level, followers=identities.followers(login), mentioned=uris)
        activity = documents.delete(actor=actor, object_uri=identities.status(login, status_id), to=to, cc=cc)
        followers = [] if level == visibilities.DIRECT else follower_inboxes(uid, None)
        audience = list(mentioned)
    else:
        fields = timelines_store.statuses.get_status(status_id)
        if not fields:
            return 0  # deleted meanwhile: its Delete follows
        fields = mentions.resolve_mentions(status_id, fields)
        if fields.get("repost_of"):
            announce = _announce(login=login, repost_id=status_id, fields=fields)
            if announce is None:
                return 0
            activity = announce
            item = policy.Item(author_uid=uid, status_id=status_id, kind="repost", fields=fields)
        else:
            status = Status.from_hash(fields)
            activity = (documents.update if version else documents.create)(note_of(status))
            item = policy.Item.of_status(status)
        direct = visibilities.of_status(fields) == visibilities.DIRECT and not fields.get("repost_of")
        if direct:
            # A message reaches the people it names as a notification does, never a feed.
            item = policy.Item.of_status(fields, context=policy.NOTIFICATION)
        followers = [] if direct else follower_inboxes(uid, item)
        # The author answered or reposted, and the people mentioned, get it too when the policy lets them see
        # it (a direct post: them alone).
        counterpart = _remote_counterpart(fields)
        extra = list(dict.fromkeys([*([counterpart] if counterpart else []), *mentions.remote_mentions(fields)]))
        audience = policy.allowed_recipients(item=item, recipients=extra)
    if deleted is not None:
        counterpart = _remote_counterpart(deleted)
        if counterpart is not None and counterpart not in audience:
            audience.append(counterpart)
    inboxes = sorted({*followers, *inboxes_of(audience)})
    for inbox in inboxes:
        queue.enqueue_delivery(inbox=inbox, activity=activity, signer=uid)
    return len(inboxes)


def deliver(*, inbox: str, activity: dict[str, Any], signer: int) -> int:
    """POST ``activity`` to ``inbox``, signed by local ``signer``. Returns the status code (0: not sent, the
    server is suspended by a domain block); a server error, a
    429 or a failure to connect raises ``DeliveryFailed`` so the job is retried; another 4xx is final (the
    inbox refused it) and is logged."""
    key_id = identities.key_id(str(activity["actor"]))
    keypairs.key_pair(signer)
    domain = actors.domain_of(inbox)
    if domain_blocks.is_suspended(domain):
        return 0  # suspended after this delivery was queued: nothing goes out to it
    try:
        status = client.post(inbox, activity, signer=signer, key_id=key_id)
    except client.FetchError as error:
        store.note_failure(domain, time.time())
        raise DeliveryFailed(str(error)) from None
    if status >= 500 or status == 429:
        store.note_failure(domain, time.time())
        raise DeliveryFailed(f"{inbox} answered {status}")
    store.note_success(domain)
    if status >= 400:
        logger.warning("%s refused %s %s: %s", inbox, activity.get("type"), activity.get("id"), status)
    return status

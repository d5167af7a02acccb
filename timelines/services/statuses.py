"""Posting and deleting statuses (book 8.1.2 and 8.4), replies and direct messages included: the author's side,
the conversation, then delivery, then the event.

A post's mentions and tags are found by ``timelines.text`` when it is written and stored with it
(``mentions`` as ``uid:login`` pairs of users that exist, ``tags`` lowercased), so every reader agrees on them.
A reply names its parent (``in_reply_to``, with the parent's author) and its conversation's ``root``; the
parent's ``reply_count`` is kept exact by ``store.conversations``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings

from timelines import events, exceptions, hooks, limits, store, text, uris
from timelines import visibility as visibilities
from timelines.records import Status, mention_pairs, stored_media
from timelines.services.activity import record_post
from timelines.services.audiences import audience_keys
from timelines.services.cleanup import finish_deletion
from timelines.services.delivery import deliver_status
from timelines.services.direct_messages import check_recipients, conversation_of, participants_or_refuse
from timelines.services.discovery import index_status
from timelines.services.pictures import check_media, claim_media, release_media
from timelines.services.publishing import publish
from timelines.services.pulled import sizes_to_count
from timelines.services.visibility import status_to_act_on
from timelines.validation import clean_extra, clean_message, parse_int

logger = logging.getLogger(__name__)


def create_status(
    *, uid: int, message: str, in_reply_to: int | None = None, visibility: str | None = None, **data: Any
) -> Status:
    """Write a status hash for ``uid`` and return the status (book listing 8.2), without delivering or
    publishing it. Raises ``InvalidMessage``, ``InvalidStatusData``, ``InvalidVisibility``, ``UnknownUser`` or
    ``StatusNotFound``."""
    fields = _fields(uid=uid, message=message, in_reply_to=in_reply_to, chosen=visibility, data=data)
    store.statuses.write_status(int(fields["id"]), {**fields, "posted": repr(fields["posted"])})
    return Status.from_hash(fields)


def _parent(uid: int, in_reply_to: object) -> dict[str, str]:
    """The stored hash of the status ``uid``'s reply answers (the original, when it is a repost); a post
    ``uid`` may not see is ``StatusNotFound``."""
    try:
        parent_id = parse_int(str(in_reply_to)) if not isinstance(in_reply_to, int) else in_reply_to
    except ValueError:
        raise exceptions.StatusNotFound() from None
    if not 0 < parent_id < limits.MAX_ID:
        raise exceptions.StatusNotFound()
    return status_to_act_on(uid=uid, status_id=parent_id)


def _mentioned(message: str) -> list[str]:
    """The logins ``message`` mentions, a mention of this server's own ``login@domain`` read as ``login``."""
    own = "@" + uris.local_domain()
    return list(dict.fromkeys(login.removesuffix(own) for login in text.mentioned_logins(message)))


def mentions_of(message: str) -> str:
    """``uid:login`` pairs of the existing users ``message`` mentions (at most ``text.MAX_MENTIONS``), as a
    status stores them (``mentions``): another server's account (``login@domain``) once it is known here."""
    logins = _mentioned(message)
    found = store.users.get_uids_by_logins(logins)
    return ",".join(f"{uid}:{login}" for login, uid in zip(logins, found, strict=True) if uid is not None)


def unknown_remote_mentions(message: str) -> list[str]:
    """The ``login@domain`` mentions of ``message`` that name no account known here yet (the federation app
    looks them up, off the request: ``hooks.look_up_accounts``)."""
    remote = [login for login in _mentioned(message) if text.is_remote_mention(login)]
    found = store.users.get_uids_by_logins(remote)
    return [login for login, uid in zip(remote, found, strict=True) if uid is None]


def _with_recipients(mentions: str, to: tuple[int, ...]) -> str:
    """The ``uid:login`` pairs of ``mentions`` followed by those of the people of ``to`` it does not name
    (a message sent in a conversation reaches its participants without naming them in its text). Raises
    ``UnknownUser`` for a uid of ``to`` that is nobody."""
    if not to:
        return mentions
    named = {uid for uid, _ in mention_pairs(mentions)}
    extra = [uid for uid in dict.fromkeys(to) if uid not in named]
    pairs = [mentions] if mentions else []
    for uid, fields in zip(extra, store.users.get_users(extra), strict=True):
        if not fields.get("login"):
            raise exceptions.UnknownUser()
        pairs.append(f"{uid}:{uris.acct(fields['login'], fields.get('domain'))}")
    return ",".join(pairs)


def _visibility(author: dict[str, str], parent: dict[str, str] | None, chosen: str | None) -> str:
    """The visibility of a new post: ``chosen`` if the author may pick it, else (None) the account's default
    narrowed to the post answered. Raises ``InvalidVisibility``."""
    account_private = bool(author.get("private"))
    replying_to = visibilities.of_status(parent) if parent is not None else None
    if chosen is None:
        return visibilities.default_level(
            account_default=author.get("default_visibility"), account_private=account_private, replying_to=replying_to
        )
    return visibilities.check(chosen, account_private=account_private, replying_to=replying_to)


def _fields(
    *,
    uid: int,
    message: str,
    in_reply_to: int | None,
    chosen: str | None,
    data: dict[str, Any],
    to: tuple[int, ...] = (),
    with_media: bool = False,
    author_out: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A new status's id and fields in stored order, typed as events carry them (not written yet).
    ``author_out``: filled with the author's hash as read here, for checks that would read it again."""
    message = clean_message(message, allow_empty=with_media)
    extra = clean_extra(data)
    if chosen is not None and chosen not in visibilities.LEVELS:
        raise exceptions.InvalidVisibility()
    parent = _parent(uid, in_reply_to) if in_reply_to is not None else None
    author, status_id, posted_micros = store.statuses.author_and_next_id(uid, durability=post_durability())
    if not author:
        raise exceptions.UnknownUser()
    if author_out is not None:
        author_out.update(author)
    level = _visibility(author, parent, chosen)
    posted = posted_micros / 1_000_000
    fields: dict[str, Any] = {
        **extra,
        "message": message,
        "posted": repr(posted),
        "id": status_id,
        "uid": uid,
        "login": author["login"],
        "name": author.get("name") or author["login"],
    }
    if parent is not None:
        fields["in_reply_to"] = int(parent["id"])
        fields["in_reply_to_uid"] = int(parent["uid"])
        fields["in_reply_to_login"] = parent["login"]
        fields["root"] = int(parent.get("root") or parent["id"])
    mentions = _with_recipients(mentions_of(message), to)
    if mentions:
        fields["mentions"] = mentions
    unknown = unknown_remote_mentions(message) if level == visibilities.DIRECT and "@" in message else []
    if unknown:
        # A post names them once its federation fan-out has found them; a direct message must wait for it, as
        # its conversation is its participants: they are looked up in jobs, and it can be sent in a moment.
        hooks.look_up_accounts(unknown)
        raise exceptions.InvalidVisibility(exceptions.UNKNOWN_RECIPIENT.format(acct=unknown[0]))
    if level == visibilities.DIRECT:
        recipients = {other: login for other, login in mention_pairs(mentions) if other != uid}
        if not recipients:
            raise exceptions.InvalidVisibility(exceptions.NO_RECIPIENT)
        check_recipients(author=uid, recipients=list(recipients), logins=recipients)
    tags = text.tags(message)
    if tags:
        fields["tags"] = ",".join(tags)
    if level != visibilities.PUBLIC:
        # Only the narrower levels are stored: a hash without the field is public, as every status written
        # before visibilities existed (and keeps the policy's per-status reads to the few that need them).
        fields["visibility"] = level
    return {**fields, "posted": posted}


def check_post(*, uid: int, message: str, in_reply_to: int | None = None, visibility: str | None = None) -> None:
    """The refusals of ``post_status`` (with images) that need no write: the text, the level's name, and the
    post a reply answers (gone or hidden: ``StatusNotFound``). For a post kept until its images are processed,
    so that these are answered at once rather than lost in a job."""
    clean_message(message, allow_empty=True)
    if visibility is not None and visibility not in visibilities.LEVELS:
        raise exceptions.InvalidVisibility()
    if in_reply_to is not None:
        _parent(uid, in_reply_to)


def post_status(
    *,
    uid: int,
    message: str,
    in_reply_to: int | None = None,
    visibility: str | None = None,
    to: tuple[int, ...] = (),
    media_ids: Sequence[object] = (),
    sensitive: bool = False,
    **data: Any,
) -> int:
    """Post a status, or with ``in_reply_to`` a reply: create it, add it to the author's profile and home,
    link it into its conversation, deliver it, publish it. Returns the status id (book listing 8.6). With
    ``POST_WAIT_REPLICAS`` set, the status and its place on the profile are on that many replicas before it is
    delivered, published and acknowledged (``store.statuses.NotReplicated``, a 503, when they are not in time).

    ``visibility`` is one of ``timelines.visibilities.LEVELS`` ("public", "unlisted", "private", "direct"); None
    picks the account's default (``private`` for a private account), narrowed to the post a reply answers.
    A private account may pick only ``private`` or ``direct``, a reply nothing wider than its parent, and a
    ``direct`` post must mention someone who exists: anything else raises ``InvalidVisibility``, before
    anything is written. The visibility never changes
    afterwards, whatever the account does later.

    The first ``POSTS_PER_PASS`` followers, and the first ``POSTS_PER_PASS`` lists the author is in, get it
    before this returns; the rest are reached by deferred jobs (``delivery``), so the cost of this call does
    not grow with the audience. A reply reaches the replier's followers like any post, and the author it
    answers and the users it mentions are notified. Raises ``InvalidMessage``, ``InvalidStatusData``,
    ``InvalidVisibility``, ``UnknownUser``, or ``StatusNotFound`` when the post answered is missing, deleted,
    or hidden from ``uid``.

    A ``direct`` post is a direct message (``direct_messages``): it goes to the conversation of its author and
    the people it mentions, plus ``to`` (uids reached without being named in the text), and to their
    notifications, never to a profile, a home, a list, a tag or the search index. ``CannotMessage`` (a block,
    a private account that does not follow the author) and ``TooManyRecipients`` refuse it before anything is
    written.

    ``media_ids``: up to four of ``uid``'s uploads not posted yet (``media.services.upload``), shown in that
    order; a post with images may have no text. ``sensitive`` hides them behind "Show sensitive content".
    Anything else is ``InvalidMedia``, before anything is written; the images belong to the post once it is
    (``services.pictures``), and their files go with it when it is deleted.
    """
    if to and visibility != visibilities.DIRECT:
        raise exceptions.InvalidVisibility()
    wanted = check_media(uid=uid, media_ids=media_ids) if media_ids else []
    author: dict[str, str] = {}
    fields = _fields(
        uid=uid,
        message=message,
        in_reply_to=in_reply_to,
        chosen=visibility,
        data=data,
        to=tuple(to),
        with_media=bool(wanted),
        author_out=author,
    )
    status_id = int(fields["id"])
    if wanted:
        fields["media"] = stored_media(claim_media(uid=uid, media_ids=wanted, status_id=status_id))
        if sensitive:
            fields["sensitive"] = "1"
        try:
            return _post(fields, author=author)
        except exceptions.TimelineError:
            # Refused with nothing of the post left (an author gone meanwhile): the uploads are theirs again.
            release_media(status_id=status_id)
            raise
    return _post(fields, author=author)


def _post(fields: dict[str, Any], *, author: Mapping[str, str] | None = None) -> int:
    """The rest of ``post_status`` once its fields are made: write, link, deliver, publish. ``author``: the
    author's hash as ``_fields`` read it (the public-timeline check then reads no flags again)."""
    uid, status_id, posted = int(fields["uid"]), int(fields["id"]), float(fields["posted"])
    if fields.get("visibility") == visibilities.DIRECT:
        _post_message(fields)
        return status_id
    then_read, sizes = audience_keys(uid), sizes_to_count(uid=uid)
    # Whether the author has followers on other servers, read with the writes: its size when there are any.
    remote_key = hooks.remote_audience_key(uid)
    if remote_key:
        then_read, sizes = [*then_read, remote_key], {**sizes, remote_key: 0}
    added, first = store.statuses.write_to_profile(
        uid,
        status_id,
        {**fields, "posted": repr(posted)},
        posted,
        then_read=then_read,
        larger_than=sizes,
        durability=post_durability(),
    )
    remote_followers = bool(first.pop()) if remote_key else None
    if added < 0:
        store.statuses.delete_status_if_owner(status_id, uid)
        raise exceptions.UnknownUser()
    if "in_reply_to" in fields:
        # A parent deleted since the check above leaves a reply to a deleted post, which is allowed.
        store.conversations.add_reply(fields["in_reply_to"], status_id, posted)
        store.conversations.link_into_thread(fields["root"], status_id, fields["in_reply_to"])
    announced: list[str] = []
    deliver_status(status=fields, first=first, own_home=True, announced=announced, remote_followers=remote_followers)
    # What the post leaves besides itself, then its events (what the first passes wrote to whom, and the post),
    # in one round trip.
    with store.batch.pipeline() as pipe:
        index_status(fields, pipe=pipe, author=author)
        record_post(uid=uid, when=posted, pipe=pipe)
        for message in announced:
            publish(message, pipe=pipe)
        publish(events.status_created(fields), pipe=pipe)
        errors = store.batch.execute(pipe)
    if errors:
        logger.warning("A new post's search words, counters or event failed: %s", errors[0])
    return status_id


def post_durability() -> store.statuses.Durability:
    """How many replicas must hold a new post before ``post_status`` acknowledges it (``POST_WAIT_REPLICAS``,
    README: Failover): none by default; with one, a post acknowledged survives its primary's ``kill -9``."""
    return store.statuses.Durability(replicas=settings.POST_WAIT_REPLICAS, timeout_ms=settings.POST_WAIT_TIMEOUT_MS)


def _post_message(fields: dict[str, Any]) -> None:
    """The rest of ``post_status`` for a direct message: the hash, its place in a thread when it answers a
    post, its delivery (conversation and notifications), the author's activity and the event. Not on the
    author's profile nor in any home, and not indexed for search or tags."""
    status_id, posted = int(fields["id"]), float(fields["posted"])
    store.statuses.write_status(status_id, {**fields, "posted": repr(posted)})
    if "in_reply_to" in fields:
        store.conversations.add_reply(fields["in_reply_to"], status_id, posted)
        store.conversations.link_into_thread(fields["root"], status_id, fields["in_reply_to"])
    deliver_status(status=fields)
    with store.batch.pipeline() as pipe:
        record_post(uid=int(fields["uid"]), when=posted, pipe=pipe)
        publish(events.status_created(fields), pipe=pipe)
        errors = store.batch.execute(pipe)
    if errors:
        logger.warning("A new message's counters or event failed: %s", errors[0])


def send_message(
    *, uid: int, message: str, conversation_id: int | None = None, to: tuple[int, ...] = ()
) -> tuple[int, int]:
    """Send a direct message from ``uid``: into conversation ``conversation_id`` (to its other participants),
    or to the people of ``to`` (a new conversation, or theirs if they already talk). People the text
    mentions join too, which makes it another conversation. Returns (status id, conversation id). Raises
    ``ConversationNotFound`` when ``uid`` is not part of the conversation, and as ``post_status``."""
    if conversation_id is not None:
        people = participants_or_refuse(uid=uid, conversation_id=conversation_id)
        others = [person for person in people if person != uid]
        # An erased account has left: the others talk on without it (in the conversation of who is left).
        to = tuple(person for person, fields in zip(others, store.users.get_users(others), strict=True) if fields)
    status_id = post_status(uid=uid, message=message, visibility=visibilities.DIRECT, to=to)
    stored = store.statuses.get_status(status_id)
    sent = conversation_of(stored) if stored else None
    if sent is None:  # deleted at once by another request: nothing to show
        raise exceptions.StatusNotFound()
    return status_id, sent


def delete_status(*, uid: int, status_id: int) -> bool:
    """Delete a status written by ``uid`` (book listing 8.8) and publish the deletion.

    The owner check and the delete are one atomic step; readers skip the missing hash at once. Then the id
    is removed from the author's profile and home (recounting ``posts``), withdrawn from every audience it was
    delivered to (the first ``POSTS_PER_PASS`` of each now, the rest by deferred jobs), and what hangs on it
    is cleaned up (``cleanup``): its reposts, its likes, its place among its parent's replies, the
    notifications about it. Its replies stay, marked as answering a deleted post. Deleting a repost is undoing
    it. Returns True. Raises ``StatusNotFound`` (no such status, or already deleted) or ``NotOwner``.
    """
    outcome, fields = store.statuses.delete_status_if_owner(status_id, uid)
    if outcome == "missing":
        raise exceptions.StatusNotFound()
    if outcome == "not_owner":
        raise exceptions.NotOwner()
    finish_deletion(fields=fields)
    return True

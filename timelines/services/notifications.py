"""Notifications (Mastodon's NotifyService): mentions, replies, reposts, likes and follows, each in the feed
of the person it concerns, through the per-recipient policy, with a live unread count.

Nobody is notified of their own actions. A feed keeps ``MAX_NOTIFICATIONS`` entries; the unread count is
the number of entries above the read mark, so it is exact whatever races. Each new notification publishes
``notification.created`` with the recipient's unread count, which every open page of theirs shows.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from timelines import events, exceptions, keys, limits, policy, store
from timelines.services.publishing import publish

MENTION = "mention"
REPLY = "reply"
REPOST = "repost"
LIKE = "like"
FOLLOW = "follow"
FOLLOW_REQUEST = "follow_request"
FOLLOW_ACCEPTED = "follow_accepted"
MODERATION = "moderation"
REPORT_RESOLVED = "report_resolved"
UPDATE = "update"  # a post they reposted was edited (Mastodon's ``update``)
# Follows of theirs were removed by a suspending domain block (Mastodon's ``severed_relationships``); its ``event``
# says with whom and how many.
SEVERED_RELATIONSHIPS = "severed_relationships"
KINDS = (
    MENTION,
    REPLY,
    REPOST,
    LIKE,
    FOLLOW,
    FOLLOW_REQUEST,
    FOLLOW_ACCEPTED,
    MODERATION,
    REPORT_RESOLVED,
    UPDATE,
    SEVERED_RELATIONSHIPS,
)
# The actor of what the site's moderators do (a removed post, a resolved report): no user, no policy.
MODERATORS = 0
_FROM_MODERATORS = frozenset({MODERATION, REPORT_RESOLVED, SEVERED_RELATIONSHIPS})


def notify(
    *,
    recipients: Iterable[int],
    kind: str,
    actor: int,
    status_id: int | None = None,
    text: str = "",
    cause: Mapping[str, Any] | None = None,
    pipe: Any = None,
    relations: store.privacy.Relations | None = None,
    notification_ids: Sequence[int] = (),
    event: Mapping[str, Any] | None = None,
) -> list[int]:
    """Notify each of ``recipients`` (once each, never ``actor``) that ``actor`` did ``kind`` (to
    ``status_id``), as far as the policy lets them receive it; ``text`` is what the moderators wrote, for
    their notifications (``actor`` ``MODERATORS``, which no policy stops). Returns who was notified. Two
    round trips per recipient: the id, and the feed's script, which publishes ``notification.created`` with the
    unread count it made.

    ``cause``: the status of ``actor`` that makes the notification (the post that mentions or answers, the
    repost), as stored. The policy judges it for each recipient, so a post that a recipient may not see (a
    private account's, to a non-follower) notifies them of nothing. ``pipe`` (a ``store.batch``): the feeds' scripts
    go on it, for the caller to send with its own. ``relations``: what ``store.privacy.relations`` read just before
    between the recipients and ``actor``, both ways (a follow has it): the policy then reads nothing.
    ``notification_ids``: ids the caller took beforehand (``store.notifications.next_notification_id``, in its
    own round trip), used in order before new ones are taken; one left unused is a gap in the ids. ``event``: what
    a ``severed_relationships`` notification is about (plain JSON: its domain and counts), kept with it."""
    if kind not in KINDS:
        raise ValueError(f"unknown notification kind {kind!r}")
    if kind in _FROM_MODERATORS:
        notified = list(dict.fromkeys(recipients))
    else:
        candidates = [recipient for recipient in dict.fromkeys(recipients) if recipient != actor]
        notified = _allowed(candidates, kind, actor, status_id, cause, relations)
    about = dict(event) if event else None  # ``event`` is the name of each feed's stream event below
    taken = iter(notification_ids)
    for recipient in notified:
        notification_id = next(taken, None) or store.notifications.next_notification_id()
        payload = _payload(notification_id, kind, actor, status_id, text, about)
        # The feed's script publishes notification.created with the unread count it made, after the write.
        event = (keys.STREAM_CHANNEL, *events.notification_created_around(uid=recipient))
        store.notifications.add(recipient, notification_id, payload, event=event, pipe=pipe)
    return notified


def prepare_notification(
    *, recipient: int, kind: str, actor: int, relations: store.privacy.Relations
) -> tuple[str, str, str, str] | None:
    """``notify`` of ``recipient`` that ``actor`` did ``kind`` (about no status), for a write that takes the
    notification's id itself (a plain follow, ``store.follow_pairs``): the notification's JSON before its id and
    after it, and its event's text before the unread count and after it. None when the policy, judging by
    ``relations`` (as ``notify``'s), does not let ``recipient`` receive it, or when ``recipient`` is ``actor``."""
    if recipient == actor or not _allowed([recipient], kind, actor, None, None, relations):
        return None
    before, _, after = _payload(-1, kind, actor, None, "", None).partition(_ID_MARK)
    return (before + '"id":', after, *events.notification_created_around(uid=recipient))


_ID_MARK = '"id":-1'


def _allowed(
    candidates: list[int],
    kind: str,
    actor: int,
    status_id: int | None,
    cause: Mapping[str, Any] | None,
    relations: store.privacy.Relations | None,
) -> list[int]:
    item = policy.Item(
        author_uid=actor,
        status_id=status_id,
        kind=f"notification.{kind}",
        fields=cause or {},
        context=policy.NOTIFICATION,
    )
    return policy.allowed_recipients(item=item, recipients=candidates, relations=relations)


def _payload(
    notification_id: int, kind: str, actor: int, status_id: int | None, text: str, about: dict[str, Any] | None
) -> str:
    """A notification as its feed stores it (JSON, its id first)."""
    content: dict[str, Any] = {
        "id": notification_id,
        "type": kind,
        "actor": actor,
        "status": status_id,
        "time": time.time(),
    }
    if text:
        content["text"] = text
    if about:
        content["event"] = about
    return json.dumps(content, separators=(",", ":"), ensure_ascii=False)


def mark_notifications_read(*, uid: int, up_to: int | None = None) -> int:
    """Mark every notification of ``uid`` as seen (opening the page does this), or with ``up_to`` those up to
    that id (a client's read marker); returns the read mark, which never moves back."""
    if not store.users.get_user(uid):
        raise exceptions.UnknownUser()
    mark = store.notifications.mark_read(uid, up_to or 0)
    unread = store.notifications.unread(uid) if up_to else 0
    publish(events.notifications_changed(uid=uid, unread=unread))
    return mark


def dismiss_notification(*, uid: int, notification_id: int) -> bool:
    """Remove one of ``uid``'s notifications (a client's "dismiss"); True if it was there. Raises
    ``UnknownUser``."""
    return _remove(uid, notification_id) > 0


def clear_notifications(*, uid: int) -> int:
    """Remove all of ``uid``'s notifications; how many there were. The read mark stays. Raises ``UnknownUser``."""
    return _remove(uid, 0)


def _remove(uid: int, notification_id: int) -> int:
    if not store.users.get_user(uid):
        raise exceptions.UnknownUser()
    removed = store.notifications.remove_by_id(uid, notification_id)
    if removed:
        publish(events.notifications_changed(uid=uid, unread=store.notifications.unread(uid)))
    return removed


def forget_status(*, uids: Iterable[int], status_id: int) -> None:
    """Remove the notifications about deleted ``status_id`` from the feeds of ``uids`` (its author, the people
    it mentioned or answered) and tell their pages the new unread count. O(MAX_NOTIFICATIONS) per feed."""
    for uid in dict.fromkeys(uids):
        payloads = store.notifications.page(uid, max_id=None, count=limits.MAX_NOTIFICATIONS)
        about = [payload for payload in payloads if json.loads(payload).get("status") == status_id]
        if about:
            store.notifications.remove(uid, about)
            publish(events.notifications_changed(uid=uid, unread=store.notifications.recount_unread(uid)))

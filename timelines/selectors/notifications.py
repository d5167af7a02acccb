"""Reading notifications: a page of someone's notifications with who did what to which post, grouped the way
Mastodon groups them ("Ada and 3 others liked your post"), and the unread count.

A page costs three round trips: the notifications with the read mark, the actors' hashes, and the posts'
hashes. Notifications about a post that is gone are left out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from timelines import exceptions, limits, policy, store
from timelines.records import Author, Status, User
from timelines.selectors.timelines import clamp_count

MODERATORS = Author(0, "", "The moderators")


@dataclass(frozen=True, slots=True)
class Notification:
    id: int
    kind: str
    actor: Author
    status: Status | None
    time: float
    unread: bool
    text: str = ""  # what the moderators wrote (a removed post, a resolved report)
    # A severed_relationships notification's: type, target_name, followers_count, following_count, created_at, id.
    event: dict | None = None


@dataclass(frozen=True, slots=True)
class NotificationGroup:
    """Notifications of one kind about one post (or follows), newest first: what a page shows as one line."""

    kind: str
    actors: list[Author]
    status: Status | None
    time: float
    newest_id: int
    unread: bool
    text: str = ""
    event: dict | None = None

    @property
    def others(self) -> int:
        return len(self.actors) - 1


@dataclass(frozen=True, slots=True)
class HeaderCounts:
    unread_notifications: int
    follow_requests: int
    unread_conversations: int = 0


def get_header_counts(*, uid: int) -> HeaderCounts:
    """What the page header counts for ``uid``: unread notifications, pending follow requests and unread
    conversations. One round trip."""
    return HeaderCounts(*store.notifications.header_counts(uid))


def get_unread_count(*, uid: int) -> int:
    """How many notifications ``uid`` has not seen (exact: counted above the read mark)."""
    return store.notifications.unread(uid)


def get_read_mark(*, uid: int) -> int:
    """The id of the newest notification ``uid`` has seen, on the site or in an app (0: none)."""
    return store.notifications.read_mark(uid)


def get_notifications(
    *, uid: int, count: int = limits.DEFAULT_PAGE_SIZE, max_id: int | None = None
) -> list[Notification]:
    """``uid``'s notifications newest first, with ids below ``max_id``. Raises ``UnknownUser``."""
    payloads, mark = store.notifications.page_and_mark(uid, max_id=max_id, count=clamp_count(count))
    if not payloads and not store.users.get_user(uid):
        raise exceptions.UnknownUser()
    raw = [json.loads(payload) for payload in payloads]
    actor_ids = sorted({int(item["actor"]) for item in raw})
    status_ids = sorted({int(item["status"]) for item in raw if item.get("status")})
    actors = {
        User.from_hash(fields).id: User.from_hash(fields) for fields in store.users.get_users(actor_ids) if fields
    }
    statuses = {int(f["id"]): Status.from_hash(f) for f in store.statuses.get_statuses(status_ids) if f}
    found = _visible(uid, raw, statuses)
    return [_notification(item, actors, statuses, mark) for item in found if _known(item, actors, statuses)]


def _known(item: dict, actors: dict[int, User], statuses: dict[int, Status]) -> bool:
    """A notification whose actor and post (if any) still exist."""
    actor_known = int(item["actor"]) == 0 or int(item["actor"]) in actors
    return actor_known and (not item.get("status") or int(item["status"]) in statuses)


def _visible(uid: int, raw: list[dict], statuses: dict[int, Status]) -> list[dict]:
    """The notifications the policy lets ``uid`` see now: an actor suspended, blocked or muted since is
    hidden, and so is a post ``uid`` may no longer see. The moderators' own notifications always show."""
    chooser = policy.get_policy()
    items = [
        policy.Item(
            author_uid=int(item["actor"]),
            status_id=int(item["status"]) if item.get("status") else None,
            kind=f"notification.{item['type']}",
            fields=_cause(item, statuses),
            context=policy.NOTIFICATION,
        )
        for item in raw
    ]
    state = chooser.load(recipients=(uid,), authors={i.author_uid for i in items if i.author_uid}, items=items)
    if chooser.allows_all(state):
        return raw
    return [
        item
        for item, decision in zip(raw, items, strict=True)
        if decision.author_uid == 0 or chooser.allows(state, recipient=uid, item=decision)
    ]


def _cause(item: dict, statuses: dict[int, Status]) -> Status | dict:
    """The status the policy judges for a notification: the post of its actor that made it (a mention, a
    reply). A like or a repost is about the recipient's own post, which the recipient may always see: judging
    it as the actor's would hide a private account's likes from itself."""
    status = statuses.get(int(item["status"])) if item.get("status") else None
    return status if status is not None and status.uid == int(item["actor"]) else {}


def _notification(item: dict, actors: dict[int, User], statuses: dict[int, Status], mark: int) -> Notification:
    actor_id = int(item["actor"])
    if actor_id == 0:
        actor = MODERATORS
    else:
        user = actors[actor_id]
        # Another server's account is named (and linked) as login@domain.
        actor = Author(user.id, user.acct, user.name)
    return Notification(
        int(item["id"]),
        item["type"],
        actor,
        statuses.get(int(item["status"])) if item.get("status") else None,
        float(item["time"]),
        int(item["id"]) > mark,
        str(item.get("text", "")),
        item.get("event") if isinstance(item.get("event"), dict) else None,
    )


def group_notifications(notifications: list[Notification]) -> list[NotificationGroup]:
    """Group a page of notifications by (kind, post), newest first; mentions and replies stay one per post
    and author, as each is a different message."""
    groups: dict[tuple[object, ...], list[Notification]] = {}
    for notification in notifications:
        status_id = notification.status.id if notification.status else None
        key: tuple[object, ...] = (notification.kind, status_id)
        if notification.kind in ("moderation", "report_resolved"):
            key = (notification.kind, notification.id)
        if notification.kind in ("mention", "reply", "moderation", "report_resolved"):
            key = (notification.kind, status_id, notification.actor.id)
        if notification.kind == "severed_relationships":
            key = (notification.kind, notification.id)  # each block its own line
        groups.setdefault(key, []).append(notification)
    result = [
        NotificationGroup(
            kind=items[0].kind,
            actors=list({item.actor.id: item.actor for item in items}.values()),
            status=items[0].status,
            time=items[0].time,
            newest_id=items[0].id,
            unread=any(item.unread for item in items),
            text=items[0].text,
            event=items[0].event,
        )
        for items in groups.values()
    ]
    return sorted(result, key=lambda found: found.newest_id, reverse=True)

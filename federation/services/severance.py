"""Severing the relationships with a suspended server (Mastodon 4.3's ``RelationshipSeveranceEvent``).

When a domain block becomes ``suspend``, every follow between people here and the accounts of that server (and
its subdomains under the same suspension) is removed, both ways, and each person here who lost some is told once
how many followers and followed accounts they lost there (a ``severed_relationships`` notification, whose
``event`` the client API shows as Mastodon's ``RelationshipSeveranceEvent``). Lifting the block restores none of
them, as in Mastodon.

The work is a job (``sever_relationships``), O(follows of the server's accounts here), paged by
``PAGE_SIZE``: first each person's counts are recorded in SQL, once (``RelationshipSeveranceEvent.recorded``),
while every follow is still there; then the follows go through the site's own unfollow service (the follower's
home loses the other side's posts and is refilled, counts, lists and the live pages follow; nothing is sent to
the suspended server, ``outbound.remote_unfollowed``); then the notifications, each marked made. A job that
runs again re-counts nothing, removes what is left and notifies only who was not notified yet.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Iterator

from django.db import transaction

from federation import store
from federation.models import AccountRelationshipSeveranceEvent, RelationshipSeveranceEvent, RemoteActor
from federation.services import domain_blocks
from timelines import exceptions, services
from timelines import keys as timelines_keys
from timelines import store as timelines_store
from timelines.services.notifications import MODERATORS, SEVERED_RELATIONSHIPS, notify

PAGE_SIZE = 1000


def _pages(key: str) -> Iterator[list[int]]:
    """Every member of a relation ZSET, ``PAGE_SIZE`` at a time, in order; safe while members are removed."""
    cursor = None
    while True:
        page = timelines_store.graph.members_after(key, cursor, PAGE_SIZE)
        if page:
            yield [int(member) for member, _ in page]
        if len(page) < PAGE_SIZE:
            return
        cursor = (page[-1][1], page[-1][0])


def _members(key: str) -> Iterator[int]:
    for page in _pages(key):
        yield from page


def _local_members(key: str) -> Iterator[int]:
    """The members of ``key`` that are accounts of this server (not another server's), one SQL query per page."""
    for page in _pages(key):
        remote = set(RemoteActor.objects.filter(uid__in=page).values_list("uid", flat=True))
        yield from (uid for uid in page if uid not in remote)


def _suspended_actors(domain: str) -> list[RemoteActor]:
    """The accounts of ``domain`` (and its subdomains) that a suspending block covers now."""
    found = list(domain_blocks.actors_of(domain))
    suspended = domain_blocks.suspended_domains(sorted({actor.domain for actor in found}))
    return [actor for actor in found if actor.domain in suspended]


def _count(actors: list[RemoteActor]) -> dict[int, list[int]]:
    """Per person here: [followers lost, followed accounts lost] with ``actors``."""
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for actor in actors:
        for uid in _local_members(timelines_keys.following(actor.uid)):
            counts[uid][0] += 1  # the actor followed them
        for uid in _local_members(timelines_keys.followers(actor.uid)):
            counts[uid][1] += 1  # they followed the actor
    return counts


def _sever(actor: RemoteActor) -> None:
    """Remove every follow (and pending follow request) between ``actor`` and people here, both ways."""
    for uid in list(_members(timelines_keys.followers(actor.uid))):
        with contextlib.suppress(exceptions.UnknownUser, exceptions.CannotFollowSelf):
            services.unfollow_user(uid=uid, other_uid=actor.uid)
    for uid in list(_members(timelines_keys.following(actor.uid))):
        with contextlib.suppress(exceptions.UnknownUser, exceptions.CannotFollowSelf):
            services.unfollow_user(uid=actor.uid, other_uid=uid)
        store.remove_remote_follower(uid, actor.uid)
    for uid in list(_members(timelines_keys.follow_requests(actor.uid))):
        services.withdraw_follow_request(uid=uid, other_uid=actor.uid)
    for uid in list(_members(timelines_keys.follow_requested(actor.uid))):
        timelines_store.privacy.remove_pair(
            timelines_keys.follow_requests(uid), timelines_keys.follow_requested(actor.uid), actor.uid, uid
        )
        store.pop_follow_request(uid, actor.uid)


def event_fields(event: RelationshipSeveranceEvent, account: AccountRelationshipSeveranceEvent) -> dict[str, object]:
    """What the notification keeps of the event, as Mastodon's ``RelationshipSeveranceEvent`` entity names it."""
    return {
        "id": account.pk,
        "type": event.type,
        "purged": False,  # the server's accounts are suspended here, not deleted
        "target_name": event.target_name,
        "followers_count": account.followers_count,
        "following_count": account.following_count,
        "created_at": event.created.timestamp(),
    }


def sever_relationships(*, event_id: int) -> int:
    """Sever the relationships of event ``event_id`` (a job): count, remove, notify. Returns how many people here
    were notified by this run. Idempotent; nothing happens when the domain is no longer suspended."""
    event = RelationshipSeveranceEvent.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    actors = _suspended_actors(event.target_name)
    if not event.recorded:
        counts = _count(actors)
        with transaction.atomic():
            AccountRelationshipSeveranceEvent.objects.bulk_create(
                [
                    AccountRelationshipSeveranceEvent(
                        event=event, uid=uid, followers_count=followers, following_count=following
                    )
                    for uid, (followers, following) in counts.items()
                ],
                ignore_conflicts=True,
            )
            RelationshipSeveranceEvent.objects.filter(pk=event.pk).update(recorded=True)
    for actor in actors:
        _sever(actor)
    notified = 0
    for account in event.accounts.filter(notified=False).order_by("pk").iterator():
        with contextlib.suppress(exceptions.UnknownUser):
            notify(
                recipients=[account.uid],
                kind=SEVERED_RELATIONSHIPS,
                actor=MODERATORS,
                event=event_fields(event, account),
            )
            notified += 1
        AccountRelationshipSeveranceEvent.objects.filter(pk=account.pk).update(notified=True)
    return notified

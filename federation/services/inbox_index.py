"""The audit of ``ap:inboxes:{uid}``, the index of each local account's remote follower inboxes that a post's
fan-out reads (``outbound.follower_inboxes``), run by ``manage.py audit_federation [--fix]``.

For every account with a remote follower: the followers recorded in ``ap:followers:{uid}`` that no longer follow it
(``followers:{uid}``, the truth), and an index whose counts or inboxes differ from the followers' inboxes as SQL
knows them now (an actor that moved its shared inbox). ``fix`` removes the former and writes the index again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from federation import store
from federation.models import RemoteActor
from timelines import keys as timelines_keys


def rebuild(uid: int) -> dict[str, int]:
    """Write ``uid``'s inbox index again from its recorded remote followers' inboxes (SQL); returns it."""
    recorded = store.remote_followers(uid)
    present = store.scores(timelines_keys.followers(uid), recorded)
    recorded = [member for member, score in zip(recorded, present, strict=True) if score is not None]
    actors = RemoteActor.objects.filter(uid__in=recorded).only("uid", "inbox", "shared_inbox")
    store.rebuild_remote_inboxes(uid, {actor.uid: actor.delivery_inbox for actor in actors})
    return store.remote_inboxes(uid)


@dataclass
class Report:
    accounts: int = 0
    stale_followers: int = 0
    wrong_indexes: int = 0
    examples: list[str] = field(default_factory=list)


def audit(*, fix: bool = False) -> Report:
    report = Report()
    for uid in store.accounts_with_remote_followers():
        report.accounts += 1
        recorded = store.remote_followers(uid)
        present = store.scores(timelines_keys.followers(uid), recorded)
        gone = [member for member, score in zip(recorded, present, strict=True) if score is None]
        report.stale_followers += len(gone)
        if gone:
            report.examples.append(f"account {uid}: {len(gone)} remote followers that do not follow it")
            if fix:
                for member in gone:
                    store.remove_remote_follower(uid, member)
        following = [member for member in recorded if member not in set(gone)]
        actors = RemoteActor.objects.filter(uid__in=following).only("uid", "inbox", "shared_inbox")
        wanted = {actor.uid: actor.delivery_inbox for actor in actors}
        counts: dict[str, int] = {}
        for inbox in wanted.values():
            counts[inbox] = counts.get(inbox, 0) + 1
        if store.remote_inboxes(uid) != counts or store.follower_inboxes(uid) != wanted:
            report.wrong_indexes += 1
            report.examples.append(f"account {uid}: its inbox index differs from its followers' inboxes")
            if fix:
                store.rebuild_remote_inboxes(uid, wanted)
    return report

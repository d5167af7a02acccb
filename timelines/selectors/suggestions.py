"""Who to follow: cheap suggestions for a new account."""

from __future__ import annotations

from timelines import keys, store
from timelines.records import User
from timelines.selectors.users import get_users

# How far back the suggestions look: this many of the newest statuses and of the newest sign-ups.
SUGGESTION_SCAN = 100


def get_suggested_users(*, uid: int, count: int = 5) -> list[User]:
    """People ``uid`` might follow: the authors of the site's most recent posts, then its newest members,
    leaving out ``uid``, anyone ``uid`` already follows, accounts the moderators suspended or limited, and
    anyone a block stands between.

    Cheap on purpose, whatever the size of the network: five round trips (the last ids, one pipeline of the
    ``SUGGESTION_SCAN`` newest status hashes, one ZMSCORE, one pipeline of the candidates' flags and blocks,
    one pipeline of user hashes) and no index to keep.
    Recent authors come first because following them fills a home timeline at once.
    """
    last_status, last_user = store.users.last_ids()
    newest_statuses = range(last_status, max(0, last_status - SUGGESTION_SCAN), -1)
    candidates: dict[int, None] = {}
    for fields in store.statuses.get_statuses(list(newest_statuses)):
        if fields and int(fields["uid"]) != uid:
            candidates.setdefault(int(fields["uid"]))
    for other in range(last_user, max(0, last_user - SUGGESTION_SCAN), -1):
        if other != uid:
            candidates.setdefault(other)
    ordered = list(candidates)[:SUGGESTION_SCAN]
    followed = store.graph.memberships(keys.following(uid), ordered)
    fresh = [other for other, is_followed in zip(ordered, followed, strict=True) if not is_followed]
    relations = store.privacy.relations([uid], fresh[: count * 3])
    kept = [
        other
        for other in fresh[: count * 3]
        if not relations.flags.get(other, frozenset()) & {"suspended", "limited"}
        and not any(pair[1] == other for pair in relations.blocked)
    ]
    return get_users(uids=kept[: count * 2])[:count]

"""Reading what the moderators decided about accounts: active, limited or suspended (the admin's account
list and its filter, the ``moderate`` command)."""

from __future__ import annotations

from collections.abc import Iterable

from timelines import store

ACTIVE, LIMITED, SUSPENDED = "active", "limited", "suspended"
ACCOUNT_STATES = (ACTIVE, LIMITED, SUSPENDED)


def account_states(uids: Iterable[int]) -> dict[int, str]:
    """The moderation state of each of ``uids``: ``"active"``, ``"limited"`` or ``"suspended"`` (suspended wins
    over limited: a suspended account reaches nobody). One round trip for any number of uids; an unknown uid
    reads as active. Reads the sets ``users:suspended`` and ``users:limited``."""
    ordered = list(dict.fromkeys(int(uid) for uid in uids))
    found = store.moderation.states(ordered)
    return {
        uid: SUSPENDED if suspended else LIMITED if limited else ACTIVE
        for uid, (suspended, limited) in zip(ordered, found, strict=True)
    }


def get_uids_in_state(state: str) -> set[int]:
    """Every uid that is ``"limited"`` or ``"suspended"`` right now (a small set: moderated accounts), for the
    admin's filter by state. A suspended account that is also limited counts as suspended only."""
    if state == SUSPENDED:
        return store.moderation.members("suspended")
    if state == LIMITED:
        return store.moderation.members("limited") - store.moderation.members("suspended")
    raise ValueError(f"not a moderated state: {state!r}")

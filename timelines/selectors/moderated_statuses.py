"""What the moderators read (the admin's Statuses list and reports): every post as stored, whoever wrote it,
with no per-recipient policy in the way, since moderators must see what the policy hides from others (a
suspended author's posts, a private account's). Never used for a page shown to members.

Direct messages are the exception (issue 19): the moderators see a message that was reported, with its report
(``get_statuses_by_id``), and nothing else of a conversation, so the Statuses list never shows one.

Posts are paged newest first by a ``max_id`` cursor through one of three sources: the global status id
counter (every post), an author's profile timeline (``@login``) or the search index (words). A filter on the
author's state (active, limited, suspended) drops posts as they are read, so one page reads at most
``MAX_READS`` batches of ids and says where to go on when it had to stop early.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from timelines import keys, store, text, validation
from timelines import visibility as visibilities
from timelines.records import Status

# The states of ``timelines.selectors.moderation.account_states``; suspended wins over limited, as there.
ACTIVE, LIMITED, SUSPENDED = "active", "limited", "suspended"
DEFAULT_COUNT = 50
MAX_READS = 10


@dataclass(frozen=True, slots=True)
class ModeratedStatus:
    """A post as the moderators see it, with its author's state."""

    status: Status
    author_state: str


@dataclass(frozen=True, slots=True)
class StatusListPage:
    statuses: tuple[ModeratedStatus, ...]
    next_max_id: int | None  # the cursor of the next (older) page; None when there is none


def get_statuses_by_id(*, status_ids: Iterable[int]) -> dict[int, Status]:
    """The posts that still exist among ``status_ids``, by id (a report's posts). One round trip."""
    ids = list(status_ids)
    return {
        status_id: Status.from_hash(fields)
        for status_id, fields in zip(ids, store.statuses.get_statuses(ids), strict=True)
        if fields
    }


def get_status_list(
    *, query: str = "", author_state: str = "", max_id: int = 0, count: int = DEFAULT_COUNT
) -> StatusListPage:
    """A page of posts, newest first, below ``max_id`` (0: from the newest).

    ``query``: an id (ASCII digits, ``validation.parse_int``) finds that post; ``@login`` pages through that
    author's posts; other text finds the posts containing every word of it (the search index). ``author_state``
    keeps only posts whose author is ``active``, ``limited`` or ``suspended`` ("" keeps all). Round trips: two
    for the moderation sets, then two per batch of ids read (at most ``MAX_READS``), one more for ``@login``.
    """
    suspended, limited = store.moderation.members(SUSPENDED), store.moderation.members(LIMITED)

    def state_of(uid: int) -> str:
        return SUSPENDED if uid in suspended else LIMITED if uid in limited else ACTIVE

    query = query.strip()
    try:
        # The shared parser, not str.isdigit(): "²" is a digit to isdigit() and no number to int().
        status_id: int | None = validation.parse_int(query)
    except ValueError:
        status_id = None
    if status_id is not None:
        return _single(status_id, state_of, author_state)
    source = _source(query)
    found: list[ModeratedStatus] = []
    cursor = max_id
    for _ in range(MAX_READS):
        ids = source(cursor, count)
        for status_id, fields in zip(ids, store.statuses.get_statuses(ids), strict=True):
            if not fields:
                continue
            status = Status.from_hash(fields)
            state = state_of(status.uid)
            if (author_state and state != author_state) or status.visibility == visibilities.DIRECT:
                continue
            found.append(ModeratedStatus(status=status, author_state=state))
            if len(found) == count:
                return StatusListPage(statuses=tuple(found), next_max_id=status_id)
        if len(ids) < count:
            return StatusListPage(statuses=tuple(found), next_max_id=None)
        cursor = ids[-1]
    return StatusListPage(statuses=tuple(found), next_max_id=cursor)


def _single(status_id: int, state_of: Callable[[int], str], author_state: str) -> StatusListPage:
    fields = store.statuses.get_status(status_id)
    if not fields:
        return StatusListPage(statuses=(), next_max_id=None)
    status = Status.from_hash(fields)
    state = state_of(status.uid)
    if (author_state and state != author_state) or status.visibility == visibilities.DIRECT:
        return StatusListPage(statuses=(), next_max_id=None)
    return StatusListPage(statuses=(ModeratedStatus(status=status, author_state=state),), next_max_id=None)


def _source(query: str) -> Callable[[int, int], list[int]]:
    """A reader of up to ``count`` ids below a cursor (0: from the newest), newest first, for ``query``."""
    if query.startswith("@"):
        uid = store.users.get_uid_by_login(query[1:].strip().lower())
        if uid is None:
            return lambda cursor, count: []

        def profile(cursor: int, count: int) -> list[int]:
            key = keys.profile_timeline(uid)
            return store.timelines.timeline_page(key, keys.user(uid), max_id=cursor, count=count) or []

        return profile
    if query:
        words = text.search_words(query)
        if not words:
            return lambda cursor, count: []
        return lambda cursor, count: store.search.find_status_ids(words, max_id=cursor, count=count)

    last: list[int] = []

    def every(cursor: int, count: int) -> list[int]:
        if not last:
            last.append(store.users.last_ids()[0])
        top = min(cursor - 1, last[0]) if cursor else last[0]
        return list(range(top, max(top - count, 0), -1))

    return every

"""Reads of the social graph: timelines, statuses, users, follow lists and named lists (book 8.2 and 8.3).

Selectors return plain data (dicts for statuses, ``records.User`` for users) and never write. A timeline page
costs two round trips whatever its size: one script for the ids, one pipeline for the status hashes.
"""

from __future__ import annotations

from timelines import exceptions, keys, store
from timelines.records import ListChoice, User, UserList, status_from_hash

# How many extra reads a page may spend replacing statuses deleted since their id was written (zombies).
MAX_REFILL_READS = 3


def _clamp_count(count: int) -> int:
    return max(1, min(int(count), keys.MAX_PAGE_SIZE))


def get_status_messages(
    *,
    uid: int,
    timeline: str = "home",
    page: int = 1,
    count: int = keys.DEFAULT_PAGE_SIZE,
    max_id: int | None = None,
    since_id: int | None = None,
) -> list[dict[str, object]]:
    """A page of statuses from ``uid``'s ``"home"`` or ``"profile"`` timeline, newest first (book listing 8.3).

    Two ways to page: ``page``/``count`` like the book, or cursors that stay stable while new statuses arrive:
    ``max_id`` returns statuses older than that id and ``since_id`` statuses newer than it (both exclusive),
    so the next page is ``max_id=<last id returned>``. Deleted statuses are never returned; on a first page or
    a cursor page, their places are filled from further down the timeline. Raises ``UnknownUser``.
    """
    return _timeline_messages(
        keys.timeline(timeline, uid), keys.user(uid), exceptions.UnknownUser, page, count, max_id, since_id
    )


def get_list_status_messages(
    *,
    list_id: int,
    page: int = 1,
    count: int = keys.DEFAULT_PAGE_SIZE,
    max_id: int | None = None,
    since_id: int | None = None,
) -> list[dict[str, object]]:
    """A page of statuses from a list's timeline, newest first, paged like ``get_status_messages`` (the book's
    exercise "Lists of users": fetch the custom list). Raises ``UnknownList``."""
    return _timeline_messages(
        keys.list_timeline(list_id), keys.user_list(list_id), exceptions.UnknownList, page, count, max_id, since_id
    )


def _timeline_messages(
    key: str,
    owner_key: str,
    missing: type[exceptions.TimelineError],
    page: int,
    count: int,
    max_id: int | None,
    since_id: int | None,
) -> list[dict[str, object]]:
    if page < 1:
        raise ValueError("page starts at 1")
    count = _clamp_count(count)
    offset = (page - 1) * count
    statuses: list[dict[str, object]] = []
    cursor = max_id or 0
    for _ in range(1 + MAX_REFILL_READS):
        wanted = count - len(statuses)
        ids = store.timeline_page(key, owner_key, max_id=cursor, since_id=since_id or 0, offset=offset, count=wanted)
        if ids is None:
            raise missing()
        statuses.extend(status_from_hash(fields) for fields in store.get_statuses(ids) if fields)
        # Refill only when paging by cursor: with page numbers the next page would repeat what a refill took.
        if len(ids) < wanted or len(statuses) >= count or page > 1:
            break
        cursor, offset = ids[-1], 0
    return statuses


def get_status(*, status_id: int) -> dict[str, object]:
    fields = store.get_status(status_id)
    if not fields:
        raise exceptions.StatusNotFound()
    return status_from_hash(fields)


def status_exists(*, status_id: int) -> bool:
    return bool(store.get_status(status_id))


def get_user(*, uid: int) -> User:
    fields = store.get_user(uid)
    if not fields:
        raise exceptions.UnknownUser()
    return User.from_hash(fields)


def get_user_by_login(*, login: str) -> User:
    """The user with this login, matched case-insensitively. Raises ``UnknownUser``."""
    uid = store.get_uid_by_login((login or "").strip().lower())
    if uid is None:
        raise exceptions.UnknownUser()
    return get_user(uid=uid)


def get_users(*, uids: list[int]) -> list[User]:
    """Users for ``uids`` in order, skipping unknown ones. One round trip."""
    return [User.from_hash(fields) for fields in store.get_users(uids) if fields]


def get_all_users() -> list[User]:
    """Every user, by id (for maintenance commands). O(users), pipelined in chunks."""
    last = store.last_id(keys.USER_ID_COUNTER)
    users: list[User] = []
    for start in range(1, last + 1, 500):
        users.extend(get_users(uids=list(range(start, min(start + 500, last + 1)))))
    return users


def _follow_list(key: str, uid: int, page: int, count: int) -> list[User]:
    if page < 1:
        raise ValueError("page starts at 1")
    count = _clamp_count(count)
    uids = store.set_members(key, offset=(page - 1) * count, count=count)
    if not uids:
        get_user(uid=uid)  # an empty list is fine, an unknown user is not
    return get_users(uids=uids)


def get_followers(*, uid: int, page: int = 1, count: int = keys.DEFAULT_PAGE_SIZE) -> list[User]:
    """The users following ``uid``, most recent first. Raises ``UnknownUser``."""
    return _follow_list(keys.followers(uid), uid, page, count)


def get_following(*, uid: int, page: int = 1, count: int = keys.DEFAULT_PAGE_SIZE) -> list[User]:
    """The users ``uid`` follows, most recent first. Raises ``UnknownUser``."""
    return _follow_list(keys.following(uid), uid, page, count)


def is_following(*, uid: int, other_uid: int) -> bool:
    return store.memberships(keys.following(uid), [other_uid]) == [True]


def get_following_flags(*, uid: int, other_uids: list[int]) -> dict[int, bool]:
    """For each of ``other_uids``, whether ``uid`` follows them. One round trip."""
    return dict(zip(other_uids, store.memberships(keys.following(uid), other_uids), strict=True))


def get_following_ids(*, uid: int, limit: int = keys.MAX_PAGE_SIZE) -> list[int]:
    """The uids ``uid`` follows, most recent first, at most ``limit`` of them. One round trip."""
    return store.set_members(keys.following(uid), offset=0, count=max(1, int(limit)))


# How far back the suggestions look: this many of the newest statuses and of the newest sign-ups.
SUGGESTION_SCAN = 100


def get_suggested_users(*, uid: int, count: int = 5) -> list[User]:
    """People ``uid`` might follow: the authors of the site's most recent posts, then its newest members,
    leaving out ``uid`` and anyone ``uid`` already follows.

    Cheap on purpose, whatever the size of the network: four round trips (the last ids, one pipeline of the
    ``SUGGESTION_SCAN`` newest status hashes, one ZMSCORE, one pipeline of user hashes) and no index to keep.
    Recent authors come first because following them fills a home timeline at once.
    """
    last_status, last_user = store.last_ids()
    newest_statuses = range(last_status, max(0, last_status - SUGGESTION_SCAN), -1)
    candidates: dict[int, None] = {}
    for fields in store.get_statuses(list(newest_statuses)):
        if fields and int(fields["uid"]) != uid:
            candidates.setdefault(int(fields["uid"]))
    for other in range(last_user, max(0, last_user - SUGGESTION_SCAN), -1):
        if other != uid:
            candidates.setdefault(other)
    ordered = list(candidates)[:SUGGESTION_SCAN]
    followed = store.memberships(keys.following(uid), ordered)
    fresh = [other for other, is_followed in zip(ordered, followed, strict=True) if not is_followed]
    return get_users(uids=fresh[: count * 2])[:count]


# --- lists of users ----------------------------------------------------------------------------------


def get_user_list(*, list_id: int) -> UserList:
    fields = store.get_list(list_id)
    if not fields:
        raise exceptions.UnknownList()
    return UserList.from_hash(fields)


def get_user_lists(*, uid: int) -> list[UserList]:
    """The lists ``uid`` owns, by name. Two round trips. Raises ``UnknownUser``."""
    list_ids = [list_id for list_id, _ in store.set_entries(keys.lists_of(uid))]
    if not list_ids:
        get_user(uid=uid)  # no lists is fine, an unknown user is not
    # An id claimed by a creation that has not written its hash yet (or never will) is skipped.
    found = [UserList.from_hash(fields) for fields in store.get_lists(list_ids) if fields]
    return sorted(found, key=lambda user_list: (user_list.name.casefold(), user_list.id))


def get_list_members(*, list_id: int, page: int = 1, count: int = keys.DEFAULT_PAGE_SIZE) -> list[User]:
    """The members of a list, most recently added first. Raises ``UnknownList``."""
    if page < 1:
        raise ValueError("page starts at 1")
    count = _clamp_count(count)
    uids = store.set_members(keys.list_members(list_id), offset=(page - 1) * count, count=count)
    if not uids:
        get_user_list(list_id=list_id)
    return get_users(uids=uids)


def is_list_member(*, list_id: int, uid: int) -> bool:
    return store.memberships(keys.list_members(list_id), [uid]) == [True]


def get_list_choices(*, uid: int, member_uid: int) -> list[ListChoice]:
    """``uid``'s lists, each with whether ``member_uid`` is in it: the list picker on a profile. Three round
    trips whatever the number of lists."""
    user_lists = get_user_lists(uid=uid)
    scores = store.member_scores(keys.listed_in(member_uid), [user_list.id for user_list in user_lists])
    return [
        ListChoice(list=user_list, is_member=score is not None)
        for user_list, score in zip(user_lists, scores, strict=True)
    ]

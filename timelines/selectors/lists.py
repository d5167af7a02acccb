"""Reading named lists of users: a list, someone's lists, a list's members, and the list picker."""

from __future__ import annotations

from timelines import exceptions, keys, limits, store
from timelines.records import ListChoice, User, UserList
from timelines.selectors.timelines import clamp_count
from timelines.selectors.users import get_user, get_users


def get_user_list(*, list_id: int) -> UserList:
    fields = store.lists.get_list(list_id)
    if not fields:
        raise exceptions.UnknownList()
    return UserList.from_hash(fields)


def get_user_lists(*, uid: int) -> list[UserList]:
    """The lists ``uid`` owns, by name. Two round trips. Raises ``UnknownUser``."""
    list_ids = [list_id for list_id, _ in store.graph.set_entries(keys.lists_of(uid))]
    if not list_ids:
        get_user(uid=uid)  # no lists is fine, an unknown user is not
    # An id claimed by a creation that has not written its hash yet (or never will) is skipped.
    found = [UserList.from_hash(fields) for fields in store.lists.get_lists(list_ids) if fields]
    return sorted(found, key=lambda user_list: (user_list.name.casefold(), user_list.id))


def get_list_members(*, list_id: int, page: int = 1, count: int = limits.DEFAULT_PAGE_SIZE) -> list[User]:
    """The members of a list, most recently added first. Raises ``UnknownList``."""
    if page < 1:
        raise ValueError("page starts at 1")
    count = clamp_count(count)
    uids = store.graph.set_members(keys.list_members(list_id), offset=(page - 1) * count, count=count)
    if not uids:
        get_user_list(list_id=list_id)
    return get_users(uids=uids)


def get_list_member_ids(*, list_id: int, limit: int = limits.MAX_LIST_MEMBERS) -> frozenset[int]:
    """The uids of a list's members (at most ``limit``, the most recently added), for a stream's index. One
    round trip."""
    return frozenset(store.graph.set_members(keys.list_members(list_id), offset=0, count=limit))


def is_list_member(*, list_id: int, uid: int) -> bool:
    return store.graph.memberships(keys.list_members(list_id), [uid]) == [True]


def get_list_choices(*, uid: int, member_uid: int) -> list[ListChoice]:
    """``uid``'s lists, each with whether ``member_uid`` is in it: the list picker on a profile. Three round
    trips whatever the number of lists."""
    user_lists = get_user_lists(uid=uid)
    scores = store.graph.member_scores(keys.listed_in(member_uid), [user_list.id for user_list in user_lists])
    return [
        ListChoice(list=user_list, is_member=score is not None)
        for user_list, score in zip(user_lists, scores, strict=True)
    ]

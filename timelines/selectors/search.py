"""Search (issue 10, book chapter 7): people by login or display-name prefix, tags by prefix, and posts that
contain every word of the query, newest first, through the per-recipient policy.

The index is described in ``timelines.services.discovery`` (how it is laid out and why) and ``keys.search``.
A query is tokenized exactly as posts are indexed (``text.search_words``): lowercased, outer punctuation
dropped, stop words left out, so "Redis, #tips!" finds a post saying "#redis tips".
"""

from __future__ import annotations

from timelines import policy, store, text
from timelines.records import SearchResults, TimelineEntry, User
from timelines.selectors.entries import entries_for
from timelines.selectors.timelines import MAX_REFILL_READS, clamp_count
from timelines.selectors.users import get_users
from timelines.validation import clean_query

MAX_PEOPLE = 10
MAX_TAGS = 10
DEFAULT_COUNT = 20


def search(
    *, query: str, viewer_uid: int | None = None, count: int = DEFAULT_COUNT, max_id: int | None = None
) -> SearchResults:
    """What ``query`` finds for ``viewer_uid`` (None: an anonymous reader).

    People and tags are looked up on the first page only (no ``max_id``); posts are paged by ``max_id``, the
    ``next_max_id`` of the previous results (exclusive, so pages never repeat or skip). Round trips: two for
    people, one for tags, two per read of posts (one pipeline of a script per shard, one of status hashes),
    with at most ``MAX_REFILL_READS`` more reads when deleted or refused posts had to be dropped. Raises
    ``EmptyQuery``, or ``InvalidQuery`` for a query over ``MAX_QUERY_LENGTH`` characters or without a word to
    search for.
    """
    query = clean_query(query)
    first_page = not max_id
    statuses, next_max_id = _statuses(text.search_words(query), viewer_uid, clamp_count(count), max_id or 0)
    return SearchResults(
        query=query,
        users=tuple(_people(query)) if first_page else (),
        tags=tuple(_tags(query)) if first_page else (),
        statuses=tuple(statuses),
        next_max_id=next_max_id,
    )


def search_people(*, query: str) -> list[User]:
    """The people ``search`` finds for ``query``, without its posts and tags (the client API's account search):
    two round trips. Raises ``EmptyQuery`` or ``InvalidQuery`` for a query over ``MAX_QUERY_LENGTH``."""
    return _people(clean_query(query))


def _people(query: str) -> list[User]:
    """Users whose login, display name or a word of it starts with the query (a leading ``@`` ignored): an
    exact login first, then logins that start with it, then names, oldest account first. An entry left stale by racing
    renames is dropped by checking the current login and name."""
    prefix = query.removeprefix("@").lower()
    if not prefix:
        return []
    uids = store.search.uids_with_prefix(prefix, MAX_PEOPLE * 3)
    found = [user for user in get_users(uids=uids) if _is_named(user, prefix)]
    found.sort(key=lambda user: (user.login.lower() != prefix, not user.login.lower().startswith(prefix), user.id))
    return found[:MAX_PEOPLE]


def _is_named(user: User, prefix: str) -> bool:
    """Whether ``user``'s login, display name or a later word of it starts with ``prefix`` (lowercased)."""
    name = user.name.lower()
    return (
        user.login.lower().startswith(prefix)
        or name.startswith(prefix)
        or any(word.startswith(prefix) for word in name.split()[1:])
    )


def _tags(query: str) -> list[str]:
    """Known tags that start with the query when it is one tag-like word (``#`` optional)."""
    name = query.removeprefix("#")
    # The start of a tag: letters, digits and "_" (digits alone too: "#2025" is no tag, "#2025goals" is).
    if not name or len(name) > text.MAX_TAG_LENGTH or not all(ch.isalnum() or ch == "_" for ch in name):
        return []
    return store.search.tags_with_prefix(text.normalize_tag(name), MAX_TAGS)


def _statuses(
    words: set[str], viewer_uid: int | None, count: int, max_id: int
) -> tuple[list[TimelineEntry], int | None]:
    """Up to ``count`` posts with every one of ``words`` below ``max_id`` that the viewer may see, and the
    cursor after the last id examined when the index may hold more."""
    statuses: list[TimelineEntry] = []
    cursor = max_id
    for _ in range(1 + MAX_REFILL_READS):
        wanted = count - len(statuses)
        ids = store.search.find_status_ids(words, max_id=cursor, count=wanted)
        # A status deleted after it was indexed (or while its index entry was being removed) is not shown.
        entries, _ = entries_for(ids, viewer=viewer_uid, context=policy.SEARCH)
        statuses.extend(entries)
        if len(ids) < wanted:
            return statuses, None
        cursor = ids[-1]
        if len(statuses) >= count:
            break
    return statuses, cursor

"""Reading a page of statuses for one viewer in as few round trips as possible: one on a single Redis server.

A page needs, for each status: whether it still exists, its counters (replies, reposts, likes), which original a
repost stands for, and whether the viewer liked, reposted or bookmarked what it shows; and, for the policy, the
moderation flags of the page's authors and the viewer's blocks, mutes and follows among them. Everything else in a
status hash (author, text, time, reply and mention fields, extra data) never changes after the status is written, so
readers keep those parts in a per-process cache (``selectors.status_cache``) and fetch the full hashes of the
statuses they have not seen yet with ``store.statuses.get_statuses``. ``posted`` comes back with every status so a
cached copy is used only for the very status it was read from (a flushed or restored Redis hands out the same ids
again, never the same microsecond).

On one server ``scripts/read_page.lua`` does it all in one call. On a Redis Cluster a script may not read keys
of other slots, so the same data is read in four pipelined round trips (ids; statuses; originals; the viewer's
flags and relations).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass
from itertools import repeat
from typing import Any, NamedTuple

from socialsite.redis_client import get_redis, is_cluster
from timelines import keys
from timelines.store.lua import run as _run
from timelines.store.privacy import Relations
from timelines.store.pulled import first_ids_and_registry, merged_ids, pulled_template
from timelines.store.status_hash import STORED_POSTED
from timelines.store.timelines import timeline_page

# What changes in a status hash after it is written: its counters, a mark when the post it answers is deleted
# (store.conversations) and its number of edits (store.edits: the version a cached copy must match); with
# posted, stored as ``P`` or, in older hashes, ``posted`` (store.status_hash).
STATUS_FIELDS = (
    "posted", "uid", "repost_of", "reply_count", "repost_count", "like_count", "in_reply_to_deleted", "edits"
)  # fmt: skip
ORIGINAL_FIELDS = ("posted", "uid", "reply_count", "repost_count", "like_count", "in_reply_to_deleted", "edits")


class PageEntry(NamedTuple):
    """What a page read says about one of its ids (``scripts/read_page.lua``'s order): ``uid`` None means the
    status is gone; ``original_uid`` None means it is not a repost, or its original is gone."""

    posted: float | None  # seconds, as readers know it (float of store.status_hash.posted_text)
    uid: int | None
    repost_of: int | None
    replies: int
    reposts: int
    likes: int
    reply_gone: int  # 1 when the post it answers was deleted
    original_posted: float | None
    original_uid: int | None
    original_replies: int
    original_reposts: int
    original_likes: int
    original_reply_gone: int
    liked: int  # 1 when the viewer liked the status shown (the original, for a repost)
    reposted: int  # 1 when the viewer reposted it
    edits: int = 0  # how many times the status was edited: its version (store.edits)
    original_edits: int = 0
    bookmarked: int = 0  # 1 when the viewer bookmarked the status shown


@dataclass(frozen=True, slots=True)
class PageRead:
    ids: list[int]
    entries: list[PageEntry]
    relations: Relations


# A status key's text before and after its id (keys.status), as read_page.lua takes them.
_STATUS_KEY_PARTS = tuple(keys.status("\0").split("\0"))


def _viewer_keys(viewer: int | None) -> list[str]:
    if viewer is None:
        return []
    return [
        keys.likes_of(viewer),
        keys.user_reposts(viewer),
        keys.blocks(viewer),
        keys.blocked_by(viewer),
        keys.mutes(viewer),
        keys.following(viewer),
        keys.bookmarks_of(viewer),
    ]


def read_page(
    key: str,
    owner_key: str,
    *,
    viewer: int | None,
    max_id: int = 0,
    since_id: int = 0,
    offset: int = 0,
    count: int,
    merge_for: int | None = None,
    merge_cap: int = 0,
) -> PageRead | None:
    """One page of the timeline ``key`` (paged as ``store.timelines.timeline_page``) as ``viewer`` reads it;
    None when the timeline is empty and ``owner_key`` does not exist. One round trip on a single server.

    ``merge_for``: the timeline is the home of this user, with a viewer; the pulled posts of up to ``merge_cap``
    of the accounts they follow are merged in (hybrid fan-out, ``store.pulled``), in the same round trip on one
    server and two more on a cluster."""
    merged = merge_for if viewer is not None and merge_cap > 0 else None
    if is_cluster():
        wanted = count if merged is None else offset + count
        registry = None
        if merged is not None and not max_id and not since_id:
            # The home's ids and the registry of pulled accounts side by side: one round trip less.
            ids, registry = first_ids_and_registry(key, owner_key, wanted)
        else:
            ids = timeline_page(
                key, owner_key, max_id=max_id, since_id=since_id, offset=offset if merged is None else 0, count=wanted
            )
        if ids is not None and merged is not None:
            ids = merged_ids(
                ids, merged, max_id=max_id, since_id=since_id, want=wanted, cap=merge_cap, registry=registry
            )[offset:]
        return None if ids is None else _read_in_pipelines(ids, viewer)
    page_keys = [key, owner_key, keys.SUSPENDED_USERS, keys.LIMITED_USERS, *_viewer_keys(viewer)]
    if merged is None:
        reply = _run("read_page", page_keys, ("timeline", max_id, since_id, offset, count, *_STATUS_KEY_PARTS))
    else:
        page_keys += [keys.PULLED_AUTHORS, keys.following(merged)]
        args = ("merged", max_id, since_id, offset, count, *_STATUS_KEY_PARTS, pulled_template(), merge_cap)
        reply = _run("read_page", page_keys, args)
    return None if reply is None else _parse(reply, viewer)


def read_ids(ids: Sequence[int], *, viewer: int | None) -> PageRead:
    """``read_page`` for statuses known by id (tag pages, search results, likes, threads), in that order."""
    if not ids:
        return PageRead([], [], Relations({}, frozenset(), frozenset(), frozenset()))
    if is_cluster():
        return _read_in_pipelines(list(ids), viewer)
    first = keys.status(ids[0])
    page_keys = [first, first, keys.SUSPENDED_USERS, keys.LIMITED_USERS, *_viewer_keys(viewer)]
    reply = _run("read_page", page_keys, ("ids", 0, 0, 0, 0, *_STATUS_KEY_PARTS, *ids))
    return _parse(reply, viewer)


def _parse(reply: list[Any], viewer: int | None) -> PageRead:
    """``PageRead`` from ``read_page.lua``'s reply: each status as one text of its fields, converted here (Python
    does it in a fraction of what the same work costs in the script, on the server every reader shares). Every
    status of every page comes through here: the entries are made as plain tuples are (``_new``) and the numbers
    converted inline."""
    rows, originals, liked, reposted, bookmarked, authors, suspended, limited, blocks, blocked_by, mutes, follows = (
        reply
    )
    next_original = iter(originals or ()).__next__
    ids: list[int] = []
    entries: list[PageEntry] = []
    append = entries.append
    # An empty reply stands for a set that does not exist: no member of it. Most viewers have none of the three.
    if liked or reposted or bookmarked:
        marks: Iterable[tuple[int, int, int]] = [
            (0 if like is None else 1, 0 if repost is None else 1, 0 if bookmark is None else 1)
            for like, repost, bookmark in zip(
                liked or _nones(rows), reposted or _nones(rows), bookmarked or _nones(rows), strict=True
            )
        ]
    else:
        marks = repeat(_UNMARKED, len(rows))
    for row, (is_liked, is_reposted, is_bookmarked) in zip(rows, marks, strict=True):
        status_id, micros, uid, repost_of, replies, reposts, likes, reply_gone, edits, posted = row.split(" ", 9)
        ids.append(int(status_id))
        when = int(micros) / _MICROS if micros else (float(posted) if posted else None)
        if not uid:
            append(_new(PageEntry, (when, None, None, 0, 0, 0, 0, None, None, 0, 0, 0, 0, is_liked, is_reposted,
                                    0, 0, is_bookmarked)))  # fmt: skip
            continue
        if not repost_of:
            append(
                _new(PageEntry, (
                    when, int(uid), None,
                    int(replies) if replies else 0, int(reposts) if reposts else 0, int(likes) if likes else 0,
                    int(reply_gone) if reply_gone else 0,
                    None, None, 0, 0, 0, 0,
                    is_liked, is_reposted, int(edits) if edits else 0, 0, is_bookmarked,
                ))
            )  # fmt: skip
            continue
        o_micros, o_uid, o_replies, o_reposts, o_likes, o_gone, o_edits, o_posted = next_original().split(" ", 7)
        o_when = int(o_micros) / _MICROS if o_micros else (float(o_posted) if o_posted else None)
        append(
            _new(PageEntry, (
                when, int(uid), int(repost_of),
                int(replies) if replies else 0, int(reposts) if reposts else 0, int(likes) if likes else 0,
                int(reply_gone) if reply_gone else 0,
                *(
                    (o_when, int(o_uid),
                     int(o_replies) if o_replies else 0, int(o_reposts) if o_reposts else 0,
                     int(o_likes) if o_likes else 0, int(o_gone) if o_gone else 0)
                    if o_uid else (o_when, None, 0, 0, 0, 0)
                ),
                is_liked, is_reposted, int(edits) if edits else 0,
                int(o_edits) if o_uid and o_edits else 0, is_bookmarked,
            ))
        )  # fmt: skip
    uids = authors.split()
    nobody = _nones(uids)
    following = [flag == "1" for flag in follows] if follows else nobody
    found = (blocks or nobody, blocked_by or nobody, mutes or nobody, following)
    rows_of = zip(uids, suspended or nobody, limited or nobody, *found, strict=True)
    return PageRead(ids, entries, _relations(viewer, rows_of))


_MICROS = 1_000_000
_UNMARKED = (0, 0, 0)  # not liked, reposted nor bookmarked


# ``_new(PageEntry, values)``: a PageEntry of all its fields in order, made as a plain tuple is (its generated
# ``__new__`` is a Python call per entry).
_new = tuple.__new__


def _nones(items: Sized) -> list[None]:
    return [None] * len(items)


def _posted(text: str | None, micros: str | None) -> float | None:
    """``posted`` in seconds from an HMGET of ``posted`` and ``P`` (store.status_hash): the same float as readers
    get from ``posted_text``, without the text in between."""
    if micros:
        return int(micros) / _MICROS
    return None if text is None else float(text)


_FLAGS = {
    (False, False): frozenset(),
    (True, False): frozenset({"suspended"}),
    (False, True): frozenset({"limited"}),
    (True, True): frozenset({"suspended", "limited"}),
}


def _number(value: Any) -> int:
    return int(value) if value else 0


def _relations(viewer: int | None, rows: Iterable[Sequence[Any]]) -> Relations:
    """The policy's ``Relations`` between ``viewer`` and the authors of ``rows`` (uid, suspended, limited,
    blocks, blocked by, mutes, follows)."""
    flags: dict[int, frozenset[str]] = {}
    blocked, muted, follows = [], [], []
    for uid, suspended, limited, blocks, blocked_by, mutes, following in rows:
        author = int(uid)
        flags[author] = _FLAGS[bool(suspended), bool(limited)]
        if viewer is None:
            continue
        if blocks or blocked_by:
            blocked.append((viewer, author))
        if mutes:
            muted.append((viewer, author))
        if following:
            follows.append((viewer, author))
    return Relations(flags, frozenset(blocked), frozenset(muted), frozenset(follows))


def _with_posted(fields: list[Any]) -> list[Any]:
    """HMGET's reply for the fields and ``P``: the fields, ``posted`` first, in seconds (``_posted``)."""
    *named, micros = fields
    named[0] = _posted(named[0], micros)
    return named


def _read_in_pipelines(ids: list[int], viewer: int | None) -> PageRead:
    """What ``read_page.lua`` returns, read with pipelines (a cluster): statuses, originals, then flags and
    relations."""
    client = get_redis()
    if not ids:
        return PageRead([], [], Relations({}, frozenset(), frozenset(), frozenset()))
    with client.pipeline(transaction=False) as pipe:
        for status_id in ids:
            pipe.hmget(keys.status(status_id), [*STATUS_FIELDS, STORED_POSTED])
        statuses = [_with_posted(fields) for fields in pipe.execute()]
    originals_of = [fields[2] if fields[1] and fields[2] else None for fields in statuses]
    wanted = [original for original in originals_of if original]
    originals: dict[str, list[Any]] = {}
    if wanted:
        with client.pipeline(transaction=False) as pipe:
            for original in wanted:
                pipe.hmget(keys.status(original), [*ORIGINAL_FIELDS, STORED_POSTED])
            originals = dict(zip(wanted, [_with_posted(fields) for fields in pipe.execute()], strict=True))
    empty: list[Any] = [None] * len(ORIGINAL_FIELDS)
    shown = [int(original) if original else status_id for status_id, original in zip(ids, originals_of, strict=True)]
    authors: list[int] = []
    for fields, original in zip(statuses, originals_of, strict=True):
        for uid in ((originals[original][1] if original else None), fields[1]):
            if uid and int(uid) not in authors:
                authors.append(int(uid))
    liked: list[Any] = [None] * len(ids)
    reposted: list[Any] = [None] * len(ids)
    bookmarked: list[Any] = [None] * len(ids)
    rows: list[list[Any]] = []
    with client.pipeline(transaction=False) as pipe:
        if authors:
            pipe.smismember(keys.SUSPENDED_USERS, authors)
            pipe.smismember(keys.LIMITED_USERS, authors)
        relation_keys = _viewer_keys(viewer)[2:6]
        if viewer is not None:
            pipe.zmscore(keys.likes_of(viewer), shown)
            pipe.hmget(keys.user_reposts(viewer), shown)
            pipe.zmscore(keys.bookmarks_of(viewer), shown)
            if authors:
                for key in relation_keys:
                    pipe.zmscore(key, authors)
        replies = pipe.execute() if (authors or viewer is not None) else []
    if authors:
        suspended, limited, *replies = replies
    else:
        suspended = limited = []
    if viewer is not None:
        liked, reposted, bookmarked, *relations = replies
    else:
        relations = []
    for index, uid in enumerate(authors):
        found = [relation[index] for relation in relations] if relations else [None] * 4
        rows.append([uid, suspended[index], limited[index], *found])
    entries = []
    flags = zip(statuses, originals_of, liked, reposted, bookmarked, strict=True)
    for fields, original, is_liked, is_reposted, is_bookmarked in flags:
        source = originals[original] if original else empty
        exists = bool(fields[1])
        original_exists = bool(source[1])
        entries.append(
            PageEntry(
                fields[0],
                int(fields[1]) if exists else None,
                int(fields[2]) if exists and fields[2] else None,
                *(_number(value) if exists else 0 for value in fields[3:7]),
                source[0],
                int(source[1]) if original_exists else None,
                *(_number(value) if original_exists else 0 for value in source[2:6]),
                int(is_liked is not None),
                int(is_reposted is not None),
                _number(fields[7]) if exists else 0,
                _number(source[6]) if original_exists else 0,
                int(is_bookmarked is not None),
            )
        )
    relation_rows = [[*row[:3], *(value is not None for value in row[3:])] for row in rows]
    return PageRead(ids, entries, _relations(viewer, relation_rows))

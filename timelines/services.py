"""Writes to the social graph: users, statuses, follows, lists, fan-out, clean-up and refills (book 8.1 to 8.4
and the chapter's exercises).

Each service validates its input, makes the whole change through ``store`` and only then publishes the stream
event. A change that spans users (a follow, a fan-out, a list membership) is a sequence of idempotent
single-slot steps (DESIGN.md), so a retry completes an interrupted change instead of doubling it. Work whose
size grows with an audience (fan-out, cleaning out a deleted status, forgetting a deleted list) does its
first ``POSTS_PER_PASS`` targets inline and queues the rest as jobs that carry their cursor; refills are
queued whole. Arguments are keyword-only so two user ids cannot be swapped by accident; the names and keywords
are the book's, including those of its exercise solutions (``create_user_list``, ``follow_user_list``,
``refill_timeline``, ``clean_timelines``).
"""

from __future__ import annotations

import contextlib
import heapq
import logging
import math
import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError

from streaming import events
from timelines import exceptions, jobs, keys, store
from timelines.records import CORE_STATUS_FIELDS, status_from_hash

logger = logging.getLogger(__name__)

_LOGIN_RE = re.compile(keys.LOGIN_PATTERN)
_EXTRA_FIELD_RE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


# --- validation --------------------------------------------------------------------------------------


def clean_login(login: str) -> str:
    login = (login or "").strip()
    if not (1 <= len(login) <= keys.MAX_LOGIN_LENGTH) or not _LOGIN_RE.match(login):
        raise exceptions.InvalidLogin()
    return login


def clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not (1 <= len(name) <= keys.MAX_NAME_LENGTH):
        raise exceptions.InvalidName()
    return name


def clean_message(message: str) -> str:
    """The message as it will be stored: NFC-normalised, newlines unified, outer whitespace stripped.

    Raises ``InvalidMessage`` when nothing is left or it is longer than ``MAX_MESSAGE_LENGTH`` characters.
    """
    if not isinstance(message, str):
        raise exceptions.InvalidMessage()
    message = unicodedata.normalize("NFC", message).replace("\r\n", "\n").replace("\r", "\n")
    message = "".join(ch for ch in message if ch == "\n" or ch == "\t" or unicodedata.category(ch) != "Cc").strip()
    if not message:
        raise exceptions.InvalidMessage(exceptions.EMPTY_MESSAGE)
    if len(message) > keys.MAX_MESSAGE_LENGTH:
        raise exceptions.InvalidMessage(exceptions.MESSAGE_TOO_LONG)
    return message


def clean_location(value: object) -> str:
    """A ``"lat,lon"`` string with latitude in [-90, 90] and longitude in [-180, 180]."""
    try:
        lat_text, lon_text = str(value).split(",")
        lat, lon = float(lat_text), float(lon_text)
    except ValueError:
        raise exceptions.InvalidStatusData("Locations are written as latitude,longitude.") from None
    if not (math.isfinite(lat) and math.isfinite(lon) and -90 <= lat <= 90 and -180 <= lon <= 180):
        raise exceptions.InvalidStatusData("That location is not on Earth.")
    return f"{lat:g},{lon:g}"


def clean_extra(data: dict[str, Any]) -> dict[str, str]:
    """Extra status fields (book listing 8.2's ``**data``): short snake_case names, short scalar values."""
    if len(data) > keys.MAX_EXTRA_FIELDS:
        raise exceptions.InvalidStatusData()
    cleaned: dict[str, str] = {}
    for name, value in data.items():
        if name in CORE_STATUS_FIELDS or name == "deleted" or not _EXTRA_FIELD_RE.match(name):
            raise exceptions.InvalidStatusData(f"A post cannot carry a field named {name!r}.")
        if value is None or value == "":
            continue
        if name == "location":
            cleaned[name] = clean_location(value)
            continue
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise exceptions.InvalidStatusData()
        text = str(value)
        if len(text) > keys.MAX_EXTRA_VALUE_LENGTH:
            raise exceptions.InvalidStatusData()
        cleaned[name] = text
    return cleaned


def _require_user(uid: int) -> dict[str, str]:
    fields = store.get_user(uid)
    if not fields:
        raise exceptions.UnknownUser()
    return fields


# --- users (book 8.1.1) ------------------------------------------------------------------------------


def create_user(*, login: str, name: str) -> int:
    """Create a user and return their uid (book listing 8.1).

    Logins are unique case-insensitively: the lowercased login is claimed with HSETNX, so of two racing
    sign-ups exactly one wins and the other gets ``LoginTaken``. The user hash is written before the claim
    and removed again by a loser, so a claimed login always points at a complete user.
    """
    login = clean_login(login)
    name = clean_name(name)
    lowered = login.lower()
    if store.get_uid_by_login(lowered) is not None:
        raise exceptions.LoginTaken()
    uid = store.next_user_id()
    store.write_user(
        uid,
        {"login": login, "id": uid, "name": name, "followers": 0, "following": 0, "posts": 0, "signup": time.time()},
    )
    if not store.claim_login(lowered, uid):
        store.delete_user(uid)
        raise exceptions.LoginTaken()
    return uid


def discard_user(*, uid: int) -> None:
    """Remove a user created moments ago whose sign-up failed in another store (no posts, no follows yet).

    Releases the login only if it still maps to ``uid``. Idempotent.
    """
    fields = store.get_user(uid)
    if fields.get("login"):
        store.release_login(fields["login"].lower(), uid)
    store.delete_user(uid)


# --- statuses (book 8.1.2 and 8.4) -------------------------------------------------------------------


def create_status(*, uid: int, message: str, **data: Any) -> dict[str, object]:
    """Write a status hash for ``uid`` and return the status (book listing 8.2), without publishing it."""
    message = clean_message(message)
    extra = clean_extra(data)
    author = _require_user(uid)
    status_id, posted_micros = store.next_status_id()
    posted = posted_micros / 1_000_000
    fields: dict[str, str | int | float] = {
        **extra,
        "message": message,
        "posted": repr(posted),
        "id": status_id,
        "uid": uid,
        "login": author["login"],
        "name": author.get("name") or author["login"],
    }
    store.write_status(status_id, fields)
    return status_from_hash({name: str(value) for name, value in fields.items()})


def post_status(*, uid: int, message: str, **data: Any) -> int:
    """Post a status: create it, add it to the author's profile and home, fan it out, publish it.

    Returns the status id (book listing 8.6). The first ``POSTS_PER_PASS`` followers, and the first
    ``POSTS_PER_PASS`` lists the author is in, get it before this returns; the rest are reached by deferred
    jobs (``syndicate_status``), so the cost of this call does not grow with the audience. Raises
    ``InvalidMessage``, ``InvalidStatusData`` or ``UnknownUser``.
    """
    status = create_status(uid=uid, message=message, **data)
    status_id, posted = int(status["id"]), float(status["posted"])
    if store.add_to_profile(uid, status_id, posted) < 0:
        store.delete_status_if_owner(status_id, uid)
        raise exceptions.UnknownUser()
    syndicate_status(uid=uid, status_id=status_id, posted=posted)
    syndicate_status(uid=uid, status_id=status_id, posted=posted, on_lists=True)
    _publish(events.encode_posted(status))
    return status_id


def _audience(uid: int, on_lists: bool) -> str:
    """Who a status of ``uid`` reaches: followers:{uid}, or with ``on_lists`` the lists uid is in."""
    return keys.listed_in(uid) if on_lists else keys.followers(uid)


def _timeline_keys(targets: list[str], on_lists: bool) -> list[str]:
    timeline = keys.list_timeline if on_lists else keys.home_timeline
    return [timeline(int(target)) for target in targets]


def syndicate_status(
    *, uid: int, status_id: int, posted: float, cursor: tuple[float, str] | None = None, on_lists: bool = False
) -> int:
    """Add a status to the home timelines of the next ``POSTS_PER_PASS`` followers after ``cursor``, or with
    ``on_lists`` to the timelines of the next ``POSTS_PER_PASS`` lists its author is in.

    Book listing 8.7 and the exercise "Updating lists", fixed: the cursor is the last target reached (score
    and member), so a pass never repeats or skips one even when many share a score, and the continuation job
    re-queues this same function with the same audience. Followers and lists are two independent chains, so
    lists need not wait for a million followers. A list deleted meanwhile is skipped, not recreated. If the
    status was deleted while the pass ran, the pass takes it back out of the timelines it just wrote (the
    clean-up may already have passed them) and the chain stops. Idempotent: ZADD of the same score and the
    trim change nothing the second time. Returns the number of targets in this pass; O(POSTS_PER_PASS) in one
    pipelined round trip.
    """
    targets = store.members_after(_audience(uid, on_lists), cursor, keys.POSTS_PER_PASS)
    members = [member for member, _ in targets]
    if not members:
        return 0
    if on_lists:
        store.push_to_list_timelines(members, status_id, posted)
    else:
        store.push_to_home_timelines(members, status_id, posted)
    if not store.status_exists(status_id):
        store.remove_from_timelines(_timeline_keys(members, on_lists), status_id)
        return len(targets)
    if len(targets) >= keys.POSTS_PER_PASS:
        last_member, last_score = targets[-1]
        jobs.enqueue_syndication(
            uid=uid, status_id=status_id, posted=posted, cursor=(last_score, last_member), on_lists=on_lists
        )
    return len(targets)


def delete_status(*, uid: int, status_id: int) -> bool:
    """Delete a status written by ``uid`` (book listing 8.8) and publish the deletion.

    The owner check and the delete are one atomic step; readers skip the missing hash at once. Then the id
    is removed from the author's profile and home (recounting ``posts``) and cleaned out of the home timeline
    of every follower and the timeline of every list the author is in (``clean_timelines``: the first
    ``POSTS_PER_PASS`` of each now, the rest by deferred jobs), so no "zombie" id stays behind. Returns True.
    Raises ``StatusNotFound`` (no such status, or already deleted) or ``NotOwner``.
    """
    outcome, fields = store.delete_status_if_owner(status_id, uid)
    if outcome == "missing":
        raise exceptions.StatusNotFound()
    if outcome == "not_owner":
        raise exceptions.NotOwner()
    store.remove_from_author(uid, status_id)
    clean_timelines(uid=uid, status_id=status_id)
    clean_timelines(uid=uid, status_id=status_id, on_lists=True)
    _publish(events.encode_deleted(status_from_hash(fields)))
    return True


def clean_timelines(
    *, uid: int, status_id: int, cursor: tuple[float, str] | None = None, on_lists: bool = False
) -> int:
    """Remove a deleted status of ``uid`` from the home timelines of the next ``POSTS_PER_PASS`` followers
    after ``cursor``, or with ``on_lists`` from the timelines of the next ``POSTS_PER_PASS`` lists ``uid`` is in.

    The book's exercise "Cleaning out deleted IDs", on the fan-out's own path: same audience, same cursor,
    same batches, the continuation queued as a job. Followers who came later never got the status (it had
    left the profile), those who left had it removed on unfollow. Idempotent (ZREM). Returns the number of
    targets in this pass; O(POSTS_PER_PASS) in one pipelined round trip.
    """
    targets = store.members_after(_audience(uid, on_lists), cursor, keys.POSTS_PER_PASS)
    store.remove_from_timelines(_timeline_keys([member for member, _ in targets], on_lists), status_id)
    if len(targets) >= keys.POSTS_PER_PASS:
        last_member, last_score = targets[-1]
        jobs.enqueue_clean_timelines(uid=uid, status_id=status_id, cursor=(last_score, last_member), on_lists=on_lists)
    return len(targets)


# --- the follower graph (book 8.3) -------------------------------------------------------------------


def _require_users(uid: int, other_uid: int) -> None:
    if uid == other_uid:
        raise exceptions.CannotFollowSelf()
    for fields in store.get_users([uid, other_uid]):
        if not fields:
            raise exceptions.UnknownUser()


def follow_user(*, uid: int, other_uid: int) -> bool:
    """Make ``uid`` follow ``other_uid``; True if they did not already (book listing 8.4, fixed).

    Each side (following:{uid} with its counter, followers:{other} with its counter) is one atomic step that
    sets the counter from the set's size, so racing follows cannot double-count. The followee's side is
    written even when nothing changed, which completes a follow interrupted between the two steps. A new
    follow copies the followee's latest ``HOME_TIMELINE_SIZE`` statuses into the follower's home (trimmed).
    """
    _require_users(uid, other_uid)
    now = time.time()
    added = store.graph_add(keys.following(uid), keys.user(uid), other_uid, now, "following")
    if added < 0:
        raise exceptions.UnknownUser()
    if store.graph_add(keys.followers(other_uid), keys.user(other_uid), uid, now, "followers") < 0:
        raise exceptions.UnknownUser()
    if added:
        recent = store.timeline_entries(keys.profile_timeline(other_uid), limit=keys.HOME_TIMELINE_SIZE)
        store.add_to_timeline(keys.home_timeline(uid), dict(recent), size=keys.HOME_TIMELINE_SIZE)
    return bool(added)


def unfollow_user(*, uid: int, other_uid: int) -> bool:
    """Make ``uid`` stop following ``other_uid``; True if they were following (book listing 8.5, fixed).

    Removes every status of the former followee that can still be in the follower's home: all of the
    followee's statuses posted since the oldest entry of that home, not only their latest 1,000. If that made
    room, a refill from the people still followed is queued (``request_refill``) and this returns at once.
    """
    _require_users(uid, other_uid)
    removed = store.graph_remove(keys.following(uid), keys.user(uid), other_uid, "following")
    store.graph_remove(keys.followers(other_uid), keys.user(other_uid), uid, "followers")
    if removed:
        _remove_author_from_timeline(keys.home_timeline(uid), other_uid, refill=lambda: request_refill(uid=uid))
    return bool(removed)


def _remove_author_from_timeline(timeline: str, author: int, *, refill: Callable[[], object]) -> None:
    """Remove every status of ``author`` that can still be in ``timeline`` (all those posted since its oldest
    entry, not only the latest 1,000), and queue a refill when that made room."""
    oldest = store.oldest_score(timeline)
    if oldest is None:
        return
    theirs = store.timeline_ids_since(keys.profile_timeline(author), oldest)
    if store.remove_from_timeline(timeline, theirs):
        refill()


# --- lists of users (the book's exercises "Lists of users" and "Updating lists") ---------------------------


def clean_list_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not (1 <= len(name) <= keys.MAX_LIST_NAME_LENGTH):
        raise exceptions.InvalidListName()
    return name


def _require_list_owner(uid: int, list_id: int) -> dict[str, str]:
    """The list's hash, if it exists and ``uid`` owns it. A list's owner never changes, so checking before
    acting cannot race; the existence check is repeated inside each write script."""
    fields = store.get_list(list_id)
    if not fields:
        raise exceptions.UnknownList()
    if int(fields["uid"]) != uid:
        raise exceptions.NotListOwner()
    return fields


def create_user_list(*, uid: int, name: str) -> int:
    """Create an empty named list owned by ``uid`` and return its id (the book's ``create_user_list``).

    Two single-slot steps: the id is claimed in lists:{uid} (with the counter and the per-user limit, so
    racing creations cannot pass it), then list:{id} is written; readers skip an id whose hash is not there
    yet. Raises ``InvalidListName``, ``UnknownUser`` or ``TooManyLists``.
    """
    name = clean_list_name(name)
    owner = _require_user(uid)
    list_id = store.next_list_id()
    now = time.time()
    claimed = store.set_add_capped(keys.lists_of(uid), keys.user(uid), list_id, now, "lists", keys.MAX_LISTS_PER_USER)
    if claimed == -1:
        raise exceptions.UnknownUser()
    if claimed == -2:
        raise exceptions.TooManyLists()
    try:
        store.write_list(
            list_id,
            {"id": list_id, "uid": uid, "login": owner["login"], "name": name, "members": 0, "created": repr(now)},
        )
    except RedisError:
        # Give the claimed id back; if Redis is gone altogether, audit_timelines removes it later.
        with contextlib.suppress(RedisError):
            store.graph_remove(keys.lists_of(uid), keys.user(uid), list_id, "lists")
        raise
    return list_id


def rename_user_list(*, uid: int, list_id: int, name: str) -> None:
    """Rename a list ``uid`` owns (one atomic check-and-write). Raises ``InvalidListName``, ``UnknownList`` or
    ``NotListOwner``."""
    name = clean_list_name(name)
    outcome = store.rename_list(list_id, uid, name)
    if outcome == "missing":
        raise exceptions.UnknownList()
    if outcome == "not_owner":
        raise exceptions.NotListOwner()


def delete_user_list(*, uid: int, list_id: int) -> bool:
    """Delete a list ``uid`` owns. Returns True; raises ``UnknownList`` or ``NotListOwner``.

    The list's hash and timeline go in one atomic step, so the list disappears at once and no fan-out can
    recreate its timeline; then it leaves the owner's lists:{uid}, and ``forget_user_list`` removes it from
    each member's list:out:{uid} (first ``POSTS_PER_PASS`` members now, the rest deferred).
    """
    outcome = store.delete_list_if_owner(list_id, uid)
    if outcome == "missing":
        raise exceptions.UnknownList()
    if outcome == "not_owner":
        raise exceptions.NotListOwner()
    store.graph_remove(keys.lists_of(uid), keys.user(uid), list_id, "lists")
    forget_user_list(list_id=list_id)
    return True


def forget_user_list(*, list_id: int, cursor: tuple[float, str] | None = None) -> int:
    """Remove a deleted list from list:out:{uid} of its next ``POSTS_PER_PASS`` members after ``cursor`` and
    recount their ``listed``; the last pass deletes the list's member set. Does nothing to a list that exists.
    Idempotent; returns the number of members in this pass."""
    if store.get_list(list_id):
        return 0
    members = store.members_after(keys.list_members(list_id), cursor, keys.POSTS_PER_PASS)
    store.graph_remove_many(
        [(keys.listed_in(int(member)), keys.user(int(member))) for member, _ in members], list_id, "listed"
    )
    if len(members) >= keys.POSTS_PER_PASS:
        last_member, last_score = members[-1]
        jobs.enqueue_forget_list(list_id=list_id, cursor=(last_score, last_member))
    else:
        store.delete_keys(keys.list_members(list_id))
    return len(members)


def follow_user_list(*, uid: int, other_uid: int, list_id: int) -> bool:
    """Add ``other_uid`` to the list ``list_id`` that ``uid`` owns; True if they were not in it yet.

    The book's ``follow_user_list``, fixed like ``follow_user``: each side (list:in:{id} with the list's
    ``members``, list:out:{other} with their ``listed``) is one single-slot step that sets its counter from the
    set's size; the member's side is written even when nothing changed, which completes an interrupted add.
    A new member's latest ``HOME_TIMELINE_SIZE`` statuses are copied into the list's timeline (trimmed). Anyone
    can be added, followed or not, the owner included. Raises ``UnknownList``, ``NotListOwner``,
    ``UnknownUser`` or ``ListFull``.
    """
    _require_list_owner(uid, list_id)
    _require_user(other_uid)
    now = time.time()
    added = store.set_add_capped(
        keys.list_members(list_id), keys.user_list(list_id), other_uid, now, "members", keys.MAX_LIST_MEMBERS
    )
    if added == -1:
        raise exceptions.UnknownList()
    if added == -2:
        raise exceptions.ListFull()
    if store.graph_add(keys.listed_in(other_uid), keys.user(other_uid), list_id, now, "listed") < 0:
        store.graph_remove(keys.list_members(list_id), keys.user_list(list_id), other_uid, "members")
        raise exceptions.UnknownUser()
    if added:
        recent = store.timeline_entries(keys.profile_timeline(other_uid), limit=keys.HOME_TIMELINE_SIZE)
        if recent:
            store.add_to_guarded_timeline(
                keys.user_list(list_id), keys.list_timeline(list_id), recent, size=keys.HOME_TIMELINE_SIZE
            )
    return bool(added)


def unfollow_user_list(*, uid: int, other_uid: int, list_id: int) -> bool:
    """Remove ``other_uid`` from the list ``list_id`` that ``uid`` owns; True if they were in it.

    The book's ``unfollow_user_list``, fixed: counters set from sizes, every status of the former member that
    can still be in the list's timeline removed (not only their latest 1,000), and the refill queued as a job
    with its arguments (the book called ``refill_timeline`` without its connection). Returns at once. Raises
    ``UnknownList`` or ``NotListOwner``.
    """
    _require_list_owner(uid, list_id)
    removed = store.graph_remove(keys.list_members(list_id), keys.user_list(list_id), other_uid, "members")
    store.graph_remove(keys.listed_in(other_uid), keys.user(other_uid), list_id, "listed")
    if removed:
        _remove_author_from_timeline(
            keys.list_timeline(list_id), other_uid, refill=lambda: request_refill(list_id=list_id)
        )
    return bool(removed)


# --- refilling and rebuilding timelines (the book's exercise "Refilling timelines") ---------------------


@dataclass(frozen=True, slots=True)
class _Timeline:
    """A timeline that is filled from the profiles of a set of users: a home or a list's timeline."""

    key: str
    owner_key: str  # user:{uid} or list:{id}: writes stop once it is gone
    sources: str  # following:{uid} or list:in:{id}
    own_uid: int | None  # a home also shows its owner's own statuses
    job_kwargs: dict[str, int]


def _timeline(uid: int | None, list_id: int | None) -> _Timeline:
    if (uid is None) == (list_id is None):
        raise ValueError("Name either a user (their home timeline) or a list.")
    if list_id is not None:
        return _Timeline(
            keys.list_timeline(list_id), keys.user_list(list_id), keys.list_members(list_id), None, {"list_id": list_id}
        )
    assert uid is not None
    return _Timeline(keys.home_timeline(uid), keys.user(uid), keys.following(uid), uid, {"uid": uid})


@dataclass(frozen=True, slots=True)
class RefillStep:
    """What one refill step did: how many users' profiles it read, how many statuses were new to the timeline,
    and the cursor the next step starts from (None when the refill is over)."""

    sources: int
    added: int
    cursor: tuple[float, str] | None


def request_refill(*, uid: int | None = None, list_id: int | None = None) -> int:
    """Queue a refill of ``uid``'s home timeline or of list ``list_id``'s timeline and return its run number.

    Returns at once; the refill runs as a chain of ``refill_timeline`` jobs. Starting a run supersedes any
    older run of the same timeline still going (it stops at its next step), since the new run reads every
    source again anyway.
    """
    timeline = _timeline(uid, list_id)
    run = store.start_refill_run(timeline.key)
    jobs.enqueue_refill(**timeline.job_kwargs, run=run, cursor=None)
    return run


def refill_timeline(
    *,
    uid: int | None = None,
    list_id: int | None = None,
    run: int | None = None,
    cursor: tuple[float, str] | None = None,
    full: bool = False,
) -> RefillStep:
    """One step of refilling a home (``uid``) or list (``list_id``) timeline from the profiles of the people it
    shows: the next ``REFILL_USERS_STEP`` followees or members after ``cursor`` (a home's owner counts too).

    The book's exercise solution ``refill_timeline``, batched: a step reads from each profile only statuses
    newer than the timeline's ``HOME_TIMELINE_SIZE``-th entry (once it is full nothing older can make the cut),
    at most ``HOME_TIMELINE_SIZE`` of them, keeps the newest ``HOME_TIMELINE_SIZE`` of the lot, adds them and
    trims, so the result is the newest statuses of all sources whatever their number. Statuses of a source
    unfollowed (or removed from the list) or deleted while the step ran are taken back out. Idempotent.

    With ``run`` (a job of ``request_refill``), a step stops when a newer run exists and queues the next step
    itself; without it the caller drives the steps (``rebuild_timeline``). A refill that starts on a full
    timeline stops at once unless ``full`` is set. O(REFILL_USERS_STEP) profile reads in one round trip.
    """
    timeline = _timeline(uid, list_id)
    if run is not None and store.current_refill_run(timeline.key) != run:
        return RefillStep(0, 0, None)
    size = keys.HOME_TIMELINE_SIZE
    floor = store.lowest_kept_score(timeline.key, size)
    if cursor is None and floor is not None and not full:
        return RefillStep(0, 0, None)
    batch = store.members_after(timeline.sources, cursor, keys.REFILL_USERS_STEP)
    sources = [int(member) for member, _ in batch]
    if cursor is None and timeline.own_uid is not None:
        sources.append(timeline.own_uid)
    per_source = store.profile_entries_newer_than(sources, floor, size)
    newest = heapq.nlargest(size, (entry for entries in per_source for entry in entries), key=lambda entry: entry[1])
    added = store.add_to_guarded_timeline(timeline.owner_key, timeline.key, newest, size=size) if newest else 0
    if added < 0:
        return RefillStep(len(sources), 0, None)  # the list was deleted: nothing left to fill
    if newest:
        _withdraw_stale(timeline, sources, per_source, {status_id for status_id, _ in newest})
    next_cursor = (batch[-1][1], batch[-1][0]) if len(batch) >= keys.REFILL_USERS_STEP else None
    if run is not None and next_cursor is not None:
        jobs.enqueue_refill(**timeline.job_kwargs, run=run, cursor=next_cursor)
    return RefillStep(len(sources), added, next_cursor)


def _withdraw_stale(
    timeline: _Timeline, sources: list[int], per_source: list[list[tuple[int, float]]], written: set[int]
) -> None:
    """Take back what a refill step just wrote from sources no longer followed (or members no longer listed)
    and statuses deleted meanwhile. Checked after the write, so either this sees the unfollow or deletion, or
    that change's own clean-up ran after the write and removed the entries."""
    checked = [source for source in sources if source != timeline.own_uid]
    left = {
        source for source, kept in zip(checked, store.memberships(timeline.sources, checked), strict=True) if not kept
    }
    stale = [
        status_id
        for source, entries in zip(sources, per_source, strict=True)
        if source in left
        for status_id, _ in entries
        if status_id in written
    ]
    ids = sorted(written)
    stale.extend(status_id for status_id, exists in zip(ids, store.statuses_exist(ids), strict=True) if not exists)
    store.remove_from_timeline(timeline.key, stale)


@dataclass(frozen=True, slots=True)
class RebuildResult:
    """What ``rebuild_timeline`` changed: entries dropped (deleted statuses, authors no longer followed or
    listed), and the timeline's size before and after."""

    removed: int
    before: int
    after: int


def rebuild_timeline(
    *, uid: int | None = None, list_id: int | None = None, on_step: Callable[[int], object] | None = None
) -> RebuildResult:
    """Rebuild a home (``uid``) or list (``list_id``) timeline from the profiles of the people it shows.

    First drops entries that do not belong (deleted statuses, authors no longer followed or in the list),
    then runs every refill step in this process, even on a full timeline, so what is missing comes back.
    Safe while the site runs: every step is one of the idempotent steps the refill jobs use, and new posts
    keep arriving by fan-out. ``on_step`` is called with the number of profiles each step read (for a progress
    bar). Raises ``UnknownUser`` or ``UnknownList``.
    """
    timeline = _timeline(uid, list_id)
    if list_id is not None and not store.get_list(list_id):
        raise exceptions.UnknownList()
    if uid is not None:
        _require_user(uid)
    ids = store.timeline_ids(timeline.key)
    authors = store.status_authors(ids)
    others = sorted({author for author in authors if author is not None and author != timeline.own_uid})
    shown = {author for author, kept in zip(others, store.memberships(timeline.sources, others), strict=True) if kept}
    if timeline.own_uid is not None:
        shown.add(timeline.own_uid)
    dropped = [status_id for status_id, author in zip(ids, authors, strict=True) if author not in shown]
    store.remove_from_timeline(timeline.key, dropped)
    cursor: tuple[float, str] | None = None
    while True:
        step = refill_timeline(uid=uid, list_id=list_id, cursor=cursor, full=True)
        if on_step is not None:
            on_step(step.sources)
        if step.cursor is None:
            break
        cursor = step.cursor
    return RebuildResult(removed=len(dropped), before=len(ids), after=store.timeline_size(timeline.key))


# --- events ------------------------------------------------------------------------------------------


def _publish(message: str) -> None:
    """Publish a stream event after its write succeeded. Pub/sub is at-most-once by nature: a failed publish
    is logged and the write it describes stands."""
    try:
        store.publish(keys.STREAM_CHANNEL, message)
    except RedisError:
        logger.warning("Could not publish a stream event; the write itself succeeded.", exc_info=True)

"""Writes to the social graph: users, statuses, follows and fan-out (book sections 8.1 to 8.4).

Each service validates its input, makes the whole change through ``store`` and only then publishes the stream
event. A change that spans users (a follow, a fan-out) is a sequence of idempotent single-slot steps
(DESIGN.md), so a retry completes an interrupted change instead of doubling it. Arguments are keyword-only so
two user ids cannot be swapped by accident; the names and keywords are the book's.
"""

from __future__ import annotations

import logging
import math
import re
import time
import unicodedata
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

    Returns the status id (book listing 8.6). The first ``POSTS_PER_PASS`` followers get it before this
    returns; the rest are reached by deferred jobs (``syndicate_status``), so the cost of this call does not
    grow with the follower count. Raises ``InvalidMessage``, ``InvalidStatusData`` or ``UnknownUser``.
    """
    status = create_status(uid=uid, message=message, **data)
    status_id, posted = int(status["id"]), float(status["posted"])
    if store.add_to_profile(uid, status_id, posted) < 0:
        store.delete_status_if_owner(status_id, uid)
        raise exceptions.UnknownUser()
    syndicate_status(uid=uid, status_id=status_id, posted=posted)
    _publish(events.encode_posted(status))
    return status_id


def syndicate_status(*, uid: int, status_id: int, posted: float, cursor: tuple[float, str] | None = None) -> int:
    """Add a status to the home timelines of the next ``POSTS_PER_PASS`` followers after ``cursor``.

    Book listing 8.7, fixed: the cursor is the last follower reached (score and member), so a pass never
    repeats or skips a follower even when many share a follow time, and the continuation job re-queues this
    same function. Idempotent: ZADD of the same score and the trim change nothing the second time. Returns
    the number of followers reached in this pass. O(POSTS_PER_PASS) in one pipelined round trip.
    """
    followers = store.followers_after(uid, cursor, keys.POSTS_PER_PASS)
    store.push_to_home_timelines([member for member, _ in followers], status_id, posted)
    if len(followers) >= keys.POSTS_PER_PASS:
        last_member, last_score = followers[-1]
        jobs.enqueue_syndication(uid=uid, status_id=status_id, posted=posted, cursor=(last_score, last_member))
    return len(followers)


def delete_status(*, uid: int, status_id: int) -> bool:
    """Delete a status written by ``uid`` (book listing 8.8) and publish the deletion.

    The owner check and the delete are one atomic step. Removes the id from the author's profile and home
    and recounts ``posts``; followers' timelines skip the missing hash at once. Returns True. Raises
    ``StatusNotFound`` (no such status, or already deleted) or ``NotOwner``.
    """
    outcome, fields = store.delete_status_if_owner(status_id, uid)
    if outcome == "missing":
        raise exceptions.StatusNotFound()
    if outcome == "not_owner":
        raise exceptions.NotOwner()
    store.remove_from_author(uid, status_id)
    _publish(events.encode_deleted(status_from_hash(fields)))
    return True


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
    followee's statuses posted since the oldest entry of that home, not only their latest 1,000.
    """
    _require_users(uid, other_uid)
    removed = store.graph_remove(keys.following(uid), keys.user(uid), other_uid, "following")
    store.graph_remove(keys.followers(other_uid), keys.user(other_uid), uid, "followers")
    if removed:
        home = keys.home_timeline(uid)
        oldest = store.oldest_score(home)
        if oldest is not None:
            theirs = store.timeline_entries(keys.profile_timeline(other_uid), min_score=oldest)
            store.remove_from_timeline(home, (status_id for status_id, _ in theirs))
    return bool(removed)


# --- events ------------------------------------------------------------------------------------------


def _publish(message: str) -> None:
    """Publish a stream event after its write succeeded. Pub/sub is at-most-once by nature: a failed publish
    is logged and the write it describes stands."""
    try:
        store.publish(keys.STREAM_CHANNEL, message)
    except RedisError:
        logger.warning("Could not publish a stream event; the write itself succeeded.", exc_info=True)

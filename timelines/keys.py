"""Every Redis key, channel and limit of the social graph (book chapter 8), in one place.

The names are the book's, with the user or status id wrapped in braces: a Redis Cluster hash tag, so every
key of one user hashes to one slot. Rule (DESIGN.md): an atomic step (MULTI or a Lua script) touches keys of
one slot only; a step spanning users is a sequence of idempotent single-slot steps.

Schema, as ``redis-cli`` shows it::

    user:{42}        HASH  login, name, id, followers, following, posts, signup   (book figure 8.1)
                     > HGETALL user:{42}
                     login alice  name "Alice Liddell"  id 42  followers 3  following 7  posts 12
                     signup 1763800000.123456
    users:           HASH  lowercased login -> uid; claimed with HSETNX, so a login is taken once
                     > HGET users: alice
                     42
    user:id:         STRING  last user id (INCR)
    status:id:       HASH  last -> last status id, clock -> last posted time in microseconds; both advance
                     in one script so status ids and posted times are ordered alike
    status:{9001}    HASH  message, posted, id, uid, login, name, plus extra data such as location "lat,lon"
                     > HGETALL status:{9001}
                     message "hello"  posted 1763800000.5  id 9001  uid 42  login alice  name "Alice Liddell"
    profile:{42}     ZSET  status id -> posted; every status the user wrote (never trimmed)
    home:{42}        ZSET  status id -> posted; the user's own and followed users' statuses, newest
                     HOME_TIMELINE_SIZE kept (trimmed on every insert)
                     > ZREVRANGE home:{42} 0 2 WITHSCORES
                     9001 1763800000.5  8990 1763799990.1  8954 1763799950.7
    followers:{42}   ZSET  follower uid -> time they followed
    following:{42}   ZSET  followed uid -> time of following

Pub/sub::

    streaming:status:   every posted status as JSON, and every deletion as the status plus "deleted": true

Because status ids and ``posted`` grow together, every timeline ZSET is ordered by id as well as by time,
which is what makes ``max_id``/``since_id`` cursors exact (see scripts/timeline_page.lua).
"""

from __future__ import annotations

HOME_TIMELINE_SIZE = 1000
POSTS_PER_PASS = 1000

MAX_MESSAGE_LENGTH = 280
MAX_LOGIN_LENGTH = 20
MAX_NAME_LENGTH = 50
LOGIN_PATTERN = r"^[A-Za-z0-9_]+$"
# Extra status fields a caller may attach (book listing 8.2's **data); anything else is refused.
MAX_EXTRA_FIELDS = 8
MAX_EXTRA_VALUE_LENGTH = 200

# Page sizes offered to readers; a larger request is clamped, not refused.
DEFAULT_PAGE_SIZE = 30
MAX_PAGE_SIZE = 200

USERS_BY_LOGIN = "users:"
USER_ID_COUNTER = "user:id:"
STATUS_ID_COUNTER = "status:id:"
STREAM_CHANNEL = "streaming:status:"


def user(uid: int) -> str:
    return f"user:{{{uid}}}"


def status(status_id: int) -> str:
    return f"status:{{{status_id}}}"


def profile_timeline(uid: int) -> str:
    return f"profile:{{{uid}}}"


def home_timeline(uid: int) -> str:
    return f"home:{{{uid}}}"


def followers(uid: int) -> str:
    return f"followers:{{{uid}}}"


def following(uid: int) -> str:
    return f"following:{{{uid}}}"


TIMELINES = {"home": home_timeline, "profile": profile_timeline}


def timeline(name: str, uid: int) -> str:
    """The key of the named timeline (``"home"`` or ``"profile"``) of ``uid``."""
    try:
        return TIMELINES[name](uid)
    except KeyError:
        raise ValueError(f"Unknown timeline {name!r}; expected one of {sorted(TIMELINES)}.") from None

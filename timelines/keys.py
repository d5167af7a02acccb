"""Every Redis key, channel and limit of the social graph (book chapter 8), in one place.

The names are the book's, with the user or status id wrapped in braces: a Redis Cluster hash tag, so every
key of one user hashes to one slot. Rule (DESIGN.md): an atomic step (MULTI or a Lua script) touches keys of
one slot only; a step spanning users is a sequence of idempotent single-slot steps.

Schema, as ``redis-cli`` shows it::

    user:{42}        HASH  login, name, id, followers, following, posts, signup   (book figure 8.1)
                     > HGETALL user:{42}
                     login alice  name "Alice Liddell"  id 42  followers 3  following 7  posts 12
                     signup 1763800000.123456
                     and, once they own or are in a list, lists (lists:{42} size), listed (list:out:{42} size)
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

Named lists of users (the book's exercises "Lists of users" and "Updating lists"): a list is "a different
type of follower", keyed by its own id, so its hash, members and timeline share the list's slot::

    list:id:           STRING  last list id (INCR)
    list:{7}           HASH  id, uid (owner), name, members, created; ``members`` is set from the size of
                       list:in:{7} inside the script that changes it, so it cannot drift
                       > HGETALL list:{7}
                       id 7  uid 42  name "Climbers"  members 3  created 1763800000.1
    lists:{42}         ZSET  list id -> created; the lists user 42 owns (counted in user:{42} ``lists``)
    list:in:{7}        ZSET  member uid -> time added; whose statuses list 7 shows
    list:out:{99}      ZSET  list id -> time added; the lists user 99 is in (counted in user:{99} ``listed``);
                       the fan-out reads it as it reads followers:{99}
    list:statuses:{7}  ZSET  status id -> posted; the list's timeline, trimmed to HOME_TIMELINE_SIZE
                       > ZREVRANGE list:statuses:{7} 0 1
                       9001 8954

Refills (the book's exercise "Refilling timelines")::

    refill:home:{42}           STRING  number of the latest refill run of home:{42}; a run that finds a
    refill:list:statuses:{7}   newer number stops, since the newer run covers everything it would do

Pub/sub::

    streaming:status:   every posted status as JSON, and every deletion as the status plus "deleted": true

Because status ids and ``posted`` grow together, every timeline ZSET is ordered by id as well as by time,
which is what makes ``max_id``/``since_id`` cursors exact (see scripts/timeline_page.lua).
"""

from __future__ import annotations

HOME_TIMELINE_SIZE = 1000
POSTS_PER_PASS = 1000
# A refill step reads the profiles of at most this many followees (or list members), so a user following
# 5,000 people never makes one step read 5,000 profiles (the book's REFILL_USERS_STEP is 50).
REFILL_USERS_STEP = 100
# How long a refill run's number is kept; far longer than any run takes.
REFILL_RUN_TTL_SECONDS = 24 * 3600

# Twitter's limits on lists.
MAX_LISTS_PER_USER = 1000
MAX_LIST_MEMBERS = 5000
MAX_LIST_NAME_LENGTH = 25

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
LIST_ID_COUNTER = "list:id:"
STREAM_CHANNEL = "streaming:status:"


def user(uid: int) -> str:
    return f"user:{{{uid}}}"


def status(status_id: int | str) -> str:
    return f"status:{{{status_id}}}"


def profile_timeline(uid: int) -> str:
    return f"profile:{{{uid}}}"


def home_timeline(uid: int) -> str:
    return f"home:{{{uid}}}"


def followers(uid: int) -> str:
    return f"followers:{{{uid}}}"


def following(uid: int) -> str:
    return f"following:{{{uid}}}"


def user_list(list_id: int) -> str:
    return f"list:{{{list_id}}}"


def lists_of(uid: int) -> str:
    """The lists ``uid`` owns."""
    return f"lists:{{{uid}}}"


def list_members(list_id: int) -> str:
    return f"list:in:{{{list_id}}}"


def listed_in(uid: int) -> str:
    """The lists ``uid`` is a member of."""
    return f"list:out:{{{uid}}}"


def list_timeline(list_id: int) -> str:
    return f"list:statuses:{{{list_id}}}"


def refill_run(timeline_key: str) -> str:
    """The run counter of refills of ``timeline_key`` (same slot as the timeline)."""
    return f"refill:{timeline_key}"


TIMELINES = {"home": home_timeline, "profile": profile_timeline}


def timeline(name: str, uid: int) -> str:
    """The key of the named timeline (``"home"`` or ``"profile"``) of ``uid``."""
    try:
        return TIMELINES[name](uid)
    except KeyError:
        raise ValueError(f"Unknown timeline {name!r}; expected one of {sorted(TIMELINES)}.") from None
